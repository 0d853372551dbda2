#!/usr/bin/env bash
# No arguments -> exit 2 with usage on stderr; missing file -> exit 1, empty stdout.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash ./report.sh >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || { echo "no args: expected exit 2, got $rc"; exit 1; }
grep -qi usage "$tmp/err" || { echo "no args: expected usage message on stderr"; exit 1; }
bash ./report.sh "$tmp/does-not-exist.log" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || { echo "missing file: expected exit 1, got $rc"; exit 1; }
[ ! -s "$tmp/out" ] || { echo "missing file: expected empty stdout"; cat "$tmp/out"; exit 1; }
[ -s "$tmp/err" ] || { echo "missing file: expected a message on stderr"; exit 1; }
echo ok
