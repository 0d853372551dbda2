#!/usr/bin/env bash
for f in extract.sh fields.awk summarise.sh report.sh; do [ -f "$f" ] || { echo "missing $f"; exit 1; }; done
echo ok
