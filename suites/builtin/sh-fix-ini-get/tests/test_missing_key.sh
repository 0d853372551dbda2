#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'name=top\n[a]\nx=1\n[b]\ny=2\n' > "$tmp/a.ini"
for args in "a y" "b x" "c x" "a name" "a X"; do
    out=$(bash ./iniget.sh "$tmp/a.ini" $args 2>/dev/null); rc=$?
    [ $rc -eq 1 ] && [ -z "$out" ] || { echo "iniget $args: expected no output and exit 1, got rc=$rc out='$out'"; exit 1; }
done
bash ./iniget.sh "$tmp/a.ini" a >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ -s "$tmp/err" ] || { echo "two args: expected exit 2 + stderr, got rc=$rc"; exit 1; }
bash ./iniget.sh "$tmp/none.ini" a x >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ -s "$tmp/err" ] || { echo "missing file: expected exit 2 + stderr, got rc=$rc"; exit 1; }
echo ok
