#!/usr/bin/env bash
# report.sh LOG - error summary per component
set -o pipefail
here=$(dirname "$0")
bash "$here/extract.sh" "$1" | bash "$here/summarize.sh"
