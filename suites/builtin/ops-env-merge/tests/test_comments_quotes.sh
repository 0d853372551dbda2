#!/usr/bin/env bash
d=$(mktemp -d)
printf '  # comment\n\nexport A=1\n B = x\nC="two words"\nA=3\nURL=a=b=c\n' > "$d/base"
printf '#only comments\nC=\x27single\x27\nD=4\n export  B=y\nD=5\n' > "$d/over"
out=$(bash merge_env.sh "$d/base" "$d/over") || { echo "script failed"; exit 1; }
expected="A=3
B=y
C='single'
URL=a=b=c
D=5"
[ "$out" = "$expected" ] || { echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1; }
echo ok
