#!/usr/bin/env bash
input=$( { for i in $(seq 12); do echo alpha; done; for i in $(seq 9); do echo beta; done; for i in $(seq 100); do echo gamma; done; echo delta; } )
out=$(printf '%s\n' "$input" | bash ./wordfreq.sh)
expected="100 gamma
12 alpha
9 beta
1 delta"
if [ "$out" != "$expected" ]; then
    echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1
fi
echo ok
