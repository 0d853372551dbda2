#!/usr/bin/env bash
d=$(mktemp -d)
out=$(bash backup.sh site "$d") || { echo "backup failed"; exit 1; }
[ "$out" = "backed up 2 files" ] || { echo "wrong message: $out"; exit 1; }
got=$(tar -tzf "$d/backup.tar.gz" | grep -v '/$' | sort)
expected="./index.html
./notes/a.txt"
[ "$got" = "$expected" ] || { echo "archive members:"; echo "$got"; exit 1; }
echo ok
