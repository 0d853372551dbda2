#!/usr/bin/env bash
# report.sh DIR: per-path latency report
here=$(dirname "$0")
echo "path count errors avg_ms max_ms"
bash "$here/extract.sh" "$1" | awk -f "$here/fields.awk" | bash "$here/summarise.sh"
