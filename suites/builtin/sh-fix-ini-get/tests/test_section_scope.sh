#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.ini" <<'INI'
port=1
[server]
port=8080
[database]
port=5432
port=6543
[Server]
port=9
[server]
timeout=30
INI
check() { local got rc; got=$(bash ./iniget.sh "$tmp/a.ini" "$1" "$2"); rc=$?
    [ $rc -eq 0 ] && [ "$got" = "$3" ] || { echo "[$1] $2: expected '$3', got '$got' (rc=$rc)"; exit 1; }; }
check server port 8080
check database port 6543
check Server port 9
check server timeout 30
echo ok
