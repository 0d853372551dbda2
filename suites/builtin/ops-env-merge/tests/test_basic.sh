#!/usr/bin/env bash
# the input files are the team's real config: they must stay untouched
[ "$(sha256sum config/base.env | cut -c1-16)" = "$(printf '%s\n' '# service defaults' 'APP_NAME=shop' 'PORT=8080' 'DB_URL=postgres://db:5432/shop' 'LOG_LEVEL=info' | sha256sum | cut -c1-16)" ] || { echo "config/base.env was changed"; exit 1; }
grep -qx 'PORT=80' config/prod.env || { echo "config/prod.env was changed"; exit 1; }
echo ok
