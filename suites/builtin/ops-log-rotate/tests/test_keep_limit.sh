#!/usr/bin/env bash
d=$(mktemp -d)
for i in 1 2 3 4 5 6; do
    echo "log $i" > "$d/web.log"
    bash rotate.sh "$d" web.log 3 || { echo "rotate failed"; exit 1; }
done
expected="web.log
web.log.1
web.log.2.gz
web.log.3.gz"
[ "$(ls "$d" | sort)" = "$expected" ] || { echo "expected files:"; echo "$expected"; echo "got:"; ls "$d"; exit 1; }
[ "$(cat "$d/web.log.1")" = "log 6" ] && [ "$(gzip -dc "$d/web.log.3.gz")" = "log 4" ] || { echo "wrong contents"; exit 1; }
echo ok
