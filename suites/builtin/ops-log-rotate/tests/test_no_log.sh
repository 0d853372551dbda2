#!/usr/bin/env bash
d=$(mktemp -d)
bash rotate.sh "$d" app.log 3 || { echo "failed without a log"; exit 1; }
[ -z "$(ls -A "$d")" ] || { echo "created files without a log: $(ls "$d")"; exit 1; }
: > "$d/app.log"
bash rotate.sh "$d" app.log 3 || exit 1
[ "$(ls "$d")" = "app.log" ] || { echo "rotated an empty log: $(ls "$d")"; exit 1; }
echo ok
