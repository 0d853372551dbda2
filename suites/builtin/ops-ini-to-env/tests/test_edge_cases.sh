#!/usr/bin/env bash
f=$(mktemp)
printf '  # c\n[ a.b ]\n  k1   =   v = w  \n\n; x\nK2=\n[c]\nurl = http://x/?a=1&b=2\n' > "$f"
out=$(bash ini2env.sh "$f") || { echo "script failed"; exit 1; }
expected="A_B_K1='v = w'
A_B_K2=''
C_URL='http://x/?a=1&b=2'"
[ "$out" = "$expected" ] || { echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1; }
echo ok
