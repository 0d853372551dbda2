#!/usr/bin/env bash
out=$(printf '' | bash ./dedupe.sh); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] || { echo "empty input: rc=$rc out='$out'"; exit 1; }
out=$(printf 'a\nb\nb\nc\n' | bash ./dedupe.sh)
[ "$out" = "$(printf 'a\nb\nc')" ] || { echo "sorted input: got:"; echo "$out"; exit 1; }
echo ok
