#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/d/photos"
echo old > "$tmp/d/notes.txt"
echo new > "$tmp/d/Notes.txt"
echo pic > "$tmp/d/Photos"
echo x > "$tmp/d/Other File"
out=$(bash ./normalize_names.sh "$tmp/d" 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] || { echo "exit status $rc"; exit 1; }
[ "$(cat "$tmp/d/notes.txt")" = old ] || { echo "notes.txt was overwritten"; exit 1; }
[ "$(cat "$tmp/d/Notes.txt")" = new ] || { echo "Notes.txt should be left in place"; exit 1; }
[ -f "$tmp/d/Photos" ] && [ -d "$tmp/d/photos" ] || { echo "Photos / photos/ should both be left in place"; exit 1; }
[ "$(cat "$tmp/d/other_file")" = x ] || { echo "Other File should have been renamed to other_file"; exit 1; }
err=$(LC_ALL=C sort "$tmp/err")
[ "$err" = "$(printf 'skip: Notes.txt\nskip: Photos')" ] || { echo "stderr: expected skip lines, got:"; cat "$tmp/err"; exit 1; }
[ "$out" = "Other File -> other_file" ] || { echo "stdout: got '$out'"; exit 1; }
bash ./normalize_names.sh "$tmp/nope" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ -s "$tmp/err" ] || { echo "missing DIR: expected exit 2 and a message, got rc=$rc"; exit 1; }
echo ok
