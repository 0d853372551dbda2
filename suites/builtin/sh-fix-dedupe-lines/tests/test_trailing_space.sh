#!/usr/bin/env bash
out=$(printf 'host-a  \nhost-b\nhost-a\n  host-b\nhost-b\t\n' | bash ./dedupe.sh | od -c)
want=$(printf 'host-a\nhost-b\n  host-b\n' | od -c)
[ "$out" = "$want" ] || { echo "expected bytes:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
echo ok
