#!/usr/bin/env bash
input=$(printf '%s\t%s\t%s\n' \
    2024-05-01T10:05:00 db 'lost' \
    2024-05-01T09:00:00 cache 'miss storm' \
    2024-05-01T10:00:00 db 'lost again' \
    2024-05-02T00:00:00 api 'timeout' \
    2024-05-01T11:00:00 db 'x' \
    2024-05-01T08:00:00 api 'boom')
out=$(printf '%s\n' "$input" | bash ./summarize.sh) || { echo "non-zero exit"; exit 1; }
want=$(printf '%s\t%s\t%s\t%s\n' \
    db 3 2024-05-01T10:00:00 2024-05-01T11:00:00 \
    api 2 2024-05-01T08:00:00 2024-05-02T00:00:00 \
    cache 1 2024-05-01T09:00:00 2024-05-01T09:00:00)
if [ "$out" != "$want" ]; then
    echo "expected:"; printf '%s\n' "$want" | cat -A; echo "got:"; printf '%s\n' "$out" | cat -A; exit 1
fi
out=$(printf '' | bash ./summarize.sh); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] || { echo "empty input: rc=$rc out='$out'"; exit 1; }
echo ok
