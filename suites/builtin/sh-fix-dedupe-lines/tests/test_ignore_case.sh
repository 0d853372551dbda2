#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'Bob@Example.com\nalice@example.com\nbob@example.com \nALICE@EXAMPLE.COM\ncarol@x.org\n' > "$tmp/list"
out=$(bash ./dedupe.sh -i "$tmp/list")
want=$(printf 'Bob@Example.com\nalice@example.com\ncarol@x.org')
[ "$out" = "$want" ] || { echo "-i FILE: expected:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
out=$(bash ./dedupe.sh < "$tmp/list")
want=$(printf 'Bob@Example.com\nalice@example.com\nbob@example.com\nALICE@EXAMPLE.COM\ncarol@x.org')
[ "$out" = "$want" ] || { echo "without -i: expected:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
out=$(printf 'X\nx\n' | bash ./dedupe.sh -i)
[ "$out" = "X" ] || { echo "-i stdin: got '$out'"; exit 1; }
echo ok
