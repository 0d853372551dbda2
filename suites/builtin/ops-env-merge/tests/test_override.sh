#!/usr/bin/env bash
out=$(bash merge_env.sh config/base.env config/prod.env) || { echo "script failed"; exit 1; }
expected="APP_NAME=shop
PORT=80
DB_URL=postgres://db:5432/shop
LOG_LEVEL=warn
SENTRY_DSN=https://key@sentry.example/1"
[ "$out" = "$expected" ] || { echo "expected:"; echo "$expected"; echo "got:"; echo "$out"; exit 1; }
echo ok
