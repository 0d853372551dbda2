#!/usr/bin/env bash
# Run the user export pipeline: raw/users.csv -> build/users_clean.csv -> build/rollup.json
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
python3 clean.py raw/users.csv build/users_clean.csv
python3 rollup.py build/users_clean.csv build/rollup.json
