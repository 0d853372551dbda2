#!/usr/bin/env bash
# dedupe.sh [-i] [FILE...] - drop duplicate lines
sort -u "$@"
