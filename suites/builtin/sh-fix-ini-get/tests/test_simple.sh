#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '[app]\nname=demo\nversion=1.2\n' > "$tmp/a.ini"
out=$(bash ./iniget.sh "$tmp/a.ini" app name); rc=$?
[ $rc -eq 0 ] && [ "$out" = "demo" ] || { echo "app.name: rc=$rc out='$out'"; exit 1; }
out=$(bash ./iniget.sh "$tmp/a.ini" app version)
[ "$out" = "1.2" ] || { echo "app.version: out='$out'"; exit 1; }
echo ok
