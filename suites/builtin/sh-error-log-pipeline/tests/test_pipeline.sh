#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: > "$tmp/big.log"
for i in $(seq 10 59); do
    case $((i % 5)) in
        0) echo "2024-06-01T12:$i:00 ERROR [zeta] disk full on /var" ;;
        1) echo "2024-06-01T12:$i:00 ERROR [alpha] handshake  failed" ;;
        2) echo "2024-06-01T12:$i:00 INFO [alpha] ERROR budget ok" ;;
        3) echo "2024-06-01T12:$i:00 ERROR [zeta] disk full" ;;
        4) echo "2024-06-01T12:$i:00 WARN [mid] ERROR rate rising" ;;
    esac
done >> "$tmp/big.log"
echo "2024-06-01T11:00:00 ERROR [mid] first" >> "$tmp/big.log"
out=$(bash ./report.sh "$tmp/big.log") || { echo "report.sh exited non-zero"; exit 1; }
want=$(printf '%s\t%s\t%s\t%s\n' \
    zeta 20 2024-06-01T12:10:00 2024-06-01T12:58:00 \
    alpha 10 2024-06-01T12:11:00 2024-06-01T12:56:00 \
    mid 1 2024-06-01T11:00:00 2024-06-01T11:00:00)
if [ "$out" != "$want" ]; then
    echo "expected:"; printf '%s\n' "$want" | cat -A; echo "got:"; printf '%s\n' "$out" | cat -A; exit 1
fi
echo ok
