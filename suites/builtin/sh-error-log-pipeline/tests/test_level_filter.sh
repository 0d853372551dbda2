#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.log" <<'LOG'
2024-05-01T10:00:00 INFO [web] ERROR page rendered
2024-05-01T10:00:01 WARN [web] upstream returned ERROR 502
2024-05-01T10:00:02 ERRORS [web] not a real level
2024-05-01T10:00:03 ERROR [queue] backlog too large
2024-05-01T10:00:04 DEBUG [queue] ERROR ERROR ERROR
LOG
out=$(bash ./extract.sh "$tmp/a.log") || { echo "non-zero exit"; exit 1; }
want=$(printf '2024-05-01T10:00:03\tqueue\tbacklog too large')
[ "$out" = "$want" ] || { echo "expected only the queue ERROR line, got:"; printf '%s\n' "$out" | cat -A; exit 1; }
echo ok
