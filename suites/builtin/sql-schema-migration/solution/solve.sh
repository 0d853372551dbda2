#!/usr/bin/env bash
set -euo pipefail
cat > migrations/002_last_login.sql <<'EOF'
ALTER TABLE users ADD COLUMN last_login TEXT;
UPDATE users SET last_login = (SELECT MAX(at) FROM logins WHERE logins.user_id = users.id);
CREATE INDEX idx_logins_user_at ON logins(user_id, at);
CREATE TRIGGER trg_logins_last AFTER INSERT ON logins
BEGIN
    UPDATE users SET last_login = NEW.at
    WHERE id = NEW.user_id AND (last_login IS NULL OR NEW.at > last_login);
END;
EOF
