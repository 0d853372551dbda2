#!/usr/bin/env bash
set -euo pipefail
mkdir -p queries
cat > queries/duplicates.sql <<'EOF'
WITH norm AS (
    SELECT id, lower(trim(email)) AS email, created FROM accounts
), ranked AS (
    SELECT email, id, ROW_NUMBER() OVER (PARTITION BY email ORDER BY created, id) AS rk FROM norm
)
SELECT n.email,
       COUNT(*) AS n,
       (SELECT id FROM ranked r WHERE r.email = n.email AND r.rk = 1) AS first_id,
       (SELECT group_concat(id, ',') FROM (SELECT id FROM norm m WHERE m.email = n.email ORDER BY id)) AS ids
FROM norm AS n
GROUP BY n.email
HAVING COUNT(*) >= 2
ORDER BY n.email;
EOF
