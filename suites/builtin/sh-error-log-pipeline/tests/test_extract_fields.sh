#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.log" <<'LOG'
2024-05-01T10:00:00 ERROR [db] connection lost   (retrying)
2024-05-01T10:00:01 ERROR [auth-svc]    token expired for user=42  
2024-05-01T10:00:02 ERROR [x]
2024-05-01T10:00:03 ERROR [web] 500 on /api/v1/items?id=7
LOG
out=$(bash ./extract.sh "$tmp/a.log") || { echo "non-zero exit"; exit 1; }
want=$(printf '%s\t%s\t%s\n' \
    2024-05-01T10:00:00 db 'connection lost   (retrying)' \
    2024-05-01T10:00:01 auth-svc 'token expired for user=42' \
    2024-05-01T10:00:03 web '500 on /api/v1/items?id=7')
if [ "$out" != "$want" ]; then
    echo "expected:"; printf '%s\n' "$want" | cat -A; echo "got:"; printf '%s\n' "$out" | cat -A; exit 1
fi
echo ok
