#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -f ./colsum.sh ] || { echo "colsum.sh does not exist"; exit 1; }
printf 'a,b\n1,2\n' > "$tmp/x.csv"
bash ./colsum.sh "$tmp/x.csv" nope >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || { echo "missing column: expected exit 1, got $rc"; exit 1; }
[ ! -s "$tmp/out" ] || { echo "missing column: stdout should be empty"; exit 1; }
grep -qx 'colsum: no such column: nope' "$tmp/err" || { echo "missing column: bad stderr:"; cat "$tmp/err"; exit 1; }
bash ./colsum.sh "$tmp/x.csv" a grp >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -qx 'colsum: no such column: grp' "$tmp/err" || { echo "missing group column: rc=$rc"; cat "$tmp/err"; exit 1; }
bash ./colsum.sh "$tmp/nofile.csv" a >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ -s "$tmp/err" ] || { echo "missing file: expected exit 1 and a message, got rc=$rc"; exit 1; }
bash ./colsum.sh "$tmp/x.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ -s "$tmp/err" ] || { echo "one argument: expected exit 2 and usage, got rc=$rc"; exit 1; }
bash ./colsum.sh a b c d >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || { echo "four arguments: expected exit 2, got rc=$rc"; exit 1; }
echo ok
