#!/usr/bin/env bash
out=$(printf 'The cat. the CAT!\n  the dog--\n"Dog", said the cat;\n' | bash ./wordfreq.sh)
expected="4 the
3 cat
2 dog
1 said"
if [ "$out" != "$expected" ]; then
    echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1
fi
out=$(printf "it's 2024, abc123def\n" | bash ./wordfreq.sh)
expected="1 abc
1 def
1 it
1 s"
if [ "$out" != "$expected" ]; then
    echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1
fi
echo ok
