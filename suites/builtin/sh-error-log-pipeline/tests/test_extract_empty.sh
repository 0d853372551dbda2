#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '2024-05-01T10:00:00 INFO [web] all good\n2024-05-01T10:00:01 WARN [db] slow query\n' > "$tmp/ok.log"
out=$(bash ./extract.sh "$tmp/ok.log"); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] || { echo "expected no output and exit 0, got rc=$rc out='$out'"; exit 1; }
echo ok
