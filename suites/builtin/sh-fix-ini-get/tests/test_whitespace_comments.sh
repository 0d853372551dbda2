#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '; top comment\n  [ db ]  \r\n  # user = commented\n  user   =   admin  \r\n url = a=b;c#d \n empty =\n\n' > "$tmp/a.ini"
check() { local got rc; got=$(bash ./iniget.sh "$tmp/a.ini" "$1" "$2"); rc=$?
    [ $rc -eq 0 ] && [ "$got" = "$3" ] || { echo "[$1] $2: expected '$3', got (rc=$rc):"; printf '%s' "$got" | od -c | head -3; exit 1; }; }
check db user admin
check db url 'a=b;c#d'
check db empty ''
out=$(bash ./iniget.sh "$tmp/a.ini" db empty | od -c | head -1)
[ "$out" = "$(printf '\n' | od -c | head -1)" ] || { echo "empty value should print just a newline"; exit 1; }
echo ok
