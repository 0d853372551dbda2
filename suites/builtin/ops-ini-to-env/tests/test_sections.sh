#!/usr/bin/env bash
out=$(bash ini2env.sh app.ini) || { echo "script failed"; exit 1; }
expected="NAME='shop'
DB_HOST='db.internal'
DB_PORT='5432'
HTTP_SERVER_MAX_CONN='100'
HTTP_SERVER_GREETING='it'\\''s open'"
[ "$out" = "$expected" ] || { echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1; }
eval "$out"
[ "$HTTP_SERVER_GREETING" = "it's open" ] || { echo "quoting broken"; exit 1; }
echo ok
