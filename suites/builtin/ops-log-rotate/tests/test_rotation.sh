#!/usr/bin/env bash
d=$(mktemp -d)
for day in one two three; do
    echo "$day" > "$d/app.log"
    bash rotate.sh "$d" app.log 5 || { echo "rotate failed"; exit 1; }
done
[ -f "$d/app.log" ] && [ ! -s "$d/app.log" ] || { echo "app.log should exist and be empty"; exit 1; }
[ "$(cat "$d/app.log.1")" = three ] || { echo "app.log.1 should hold the latest log"; exit 1; }
[ "$(gzip -dc "$d/app.log.2.gz")" = two ] || { echo "app.log.2.gz should hold the previous log"; exit 1; }
[ "$(gzip -dc "$d/app.log.3.gz")" = one ] || { echo "app.log.3.gz should hold the oldest log"; exit 1; }
[ "$(ls "$d" | wc -l)" -eq 4 ] || { echo "unexpected files: $(ls "$d")"; exit 1; }
echo ok
