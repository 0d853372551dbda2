#!/usr/bin/env bash
# summarize.sh < errors.tsv - per-component error counts (see instruction.md)
echo "summarize.sh: not implemented" >&2
exit 1
