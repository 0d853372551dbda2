#!/usr/bin/env bash
out=$(printf 'three two three one two three\n' | bash ./wordfreq.sh)
expected="3 three
2 two
1 one"
if [ "$out" != "$expected" ]; then
    echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1
fi
out=$(printf '' | bash ./wordfreq.sh)
[ -z "$out" ] || { echo "empty input should give empty output, got: $out"; exit 1; }
echo ok
