#!/usr/bin/env bash
out=$(bash report.sh logs)
expected="path count errors avg_ms max_ms
/api/orders 4 1 330 1203
/api/users 4 1 637 2500"
[ "$out" = "$expected" ] || { echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1; }
echo ok
