#!/usr/bin/env bash
# rotate.sh DIR NAME KEEP
dir=$1; name=$2; keep=$3
cd "$dir" || exit 1
[ -s "$name" ] || exit 0
for i in $(seq 1 "$keep"); do
    if [ -f "$name.$i.gz" ]; then
        mv "$name.$i.gz" "$name.$((i + 1)).gz"
    fi
done
if [ -f "$name.1" ]; then
    gzip "$name.1"
fi
mv "$name" "$name.1"
touch "$name"
