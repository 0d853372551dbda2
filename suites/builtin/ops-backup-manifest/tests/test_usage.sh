#!/usr/bin/env bash
d=$(mktemp -d)
bash backup.sh /nonexistent "$d/out" 2>/dev/null
[ $? -eq 2 ] || { echo "missing SRC should exit 2"; exit 1; }
[ ! -e "$d/out" ] || { echo "created DEST for a missing SRC"; exit 1; }
echo ok
