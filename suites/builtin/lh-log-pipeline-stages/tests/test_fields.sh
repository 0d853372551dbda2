#!/usr/bin/env bash
out=$(printf '2024-05-02T09:00:00Z level=INFO status=404 host=h ms=7 path=/x\n' | awk -f fields.awk)
[ "$out" = "$(printf '/x\t404\t7')" ] || { echo "got: $out"; exit 1; }
echo ok
