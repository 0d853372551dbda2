#!/usr/bin/env bash
out=$(bash extract.sh logs)
[ "$(echo "$out" | wc -l)" -eq 8 ] || { echo "expected 8 lines, got:"; echo "$out"; exit 1; }
echo "$out" | grep -q garbage && { echo "kept a malformed line"; exit 1; }
echo "$out" | grep -q 'path=/health' && { echo "kept /health"; exit 1; }
echo "$out" | grep -q 9999 && { echo "read a file that is not *.log"; exit 1; }
[ "$(echo "$out" | tail -1 | cut -c1-10)" = "2024-05-02" ] || { echo "files not in name order"; exit 1; }
echo ok
