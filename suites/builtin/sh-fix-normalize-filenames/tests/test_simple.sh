#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d"
echo one > "$tmp/d/README.TXT"; echo two > "$tmp/d/Data.csv"; echo three > "$tmp/d/ok.txt"
out=$(bash ./normalize_names.sh "$tmp/d"); rc=$?
[ $rc -eq 0 ] || { echo "exit status $rc"; exit 1; }
listing=$(cd "$tmp/d" && ls | LC_ALL=C sort | tr '\n' ' ')
[ "$listing" = "data.csv ok.txt readme.txt " ] || { echo "files after run: $listing"; exit 1; }
[ "$(cat "$tmp/d/readme.txt")" = one ] || { echo "content of readme.txt changed"; exit 1; }
want=$(printf 'Data.csv -> data.csv\nREADME.TXT -> readme.txt')
[ "$out" = "$want" ] || { echo "stdout: expected"; echo "$want"; echo "got"; echo "$out"; exit 1; }
echo ok
