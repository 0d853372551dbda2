#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/d/Sub Dir"
echo a > "$tmp/d/My  Report FINAL.PDF"
echo b > "$tmp/d/scan 01.png"
echo c > "$tmp/d/Sub Dir/Inner File.TXT"
echo d > "$tmp/d/-dash Start.txt"
out=$(bash ./normalize_names.sh "$tmp/d" 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] || { echo "exit status $rc"; cat "$tmp/err"; exit 1; }
listing=$(cd "$tmp/d" && ls -A | LC_ALL=C sort | tr '\n' '|')
[ "$listing" = "-dash_start.txt|Sub Dir|my_report_final.pdf|scan_01.png|" ] || { echo "files after run: $listing"; exit 1; }
[ -f "$tmp/d/Sub Dir/Inner File.TXT" ] || { echo "sub-directory contents must not be touched"; exit 1; }
[ "$(cat "$tmp/d/my_report_final.pdf")" = a ] || { echo "wrong content in my_report_final.pdf"; exit 1; }
want=$(printf '%s\n' '-dash Start.txt -> -dash_start.txt' 'My  Report FINAL.PDF -> my_report_final.pdf' 'scan 01.png -> scan_01.png')
[ "$out" = "$want" ] || { echo "stdout: expected"; echo "$want"; echo "got"; echo "$out"; exit 1; }
echo ok
