#!/usr/bin/env bash
out=$(printf '/b\t500\t3\n/a\t200\t2\n/a\t503\t3\n/b\t499\t10\n' | bash summarise.sh)
expected="/a 2 1 3 3
/b 2 1 7 10"
[ "$out" = "$expected" ] || { echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1; }
echo ok
