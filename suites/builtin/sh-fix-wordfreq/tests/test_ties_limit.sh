#!/usr/bin/env bash
text='pear apple fig pear apple kiwi fig date pear'
out=$(echo "$text" | bash ./wordfreq.sh 3)
expected="3 pear
2 apple
2 fig"
if [ "$out" != "$expected" ]; then
    echo "N=3: expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1
fi
words=$(for i in $(seq 15); do printf 'w%s ' "$(printf '%s' "$i" | tr '0-9' 'a-j')"; done)
out=$(echo "$words" | bash ./wordfreq.sh | wc -l)
[ "$out" -eq 10 ] || { echo "default N should print 10 lines, got $out"; exit 1; }
echo ok
