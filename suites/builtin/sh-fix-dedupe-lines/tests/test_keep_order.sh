#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'zeta\nalpha\nzeta\nmid\nalpha\n\nlast\n\n' > "$tmp/one.txt"
printf 'mid\nnew\nzeta\n' > "$tmp/two.txt"
out=$(bash ./dedupe.sh "$tmp/one.txt" "$tmp/two.txt")
want=$(printf 'zeta\nalpha\nmid\n\nlast\nnew')
[ "$out" = "$want" ] || { echo "two files: expected:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
out=$(printf '3\n1\n3\n2\n1\n' | bash ./dedupe.sh)
[ "$out" = "$(printf '3\n1\n2')" ] || { echo "stdin: got:"; echo "$out"; exit 1; }
echo ok
