#!/usr/bin/env bash
# wordfreq.sh [N] < text  -- print the N most frequent words as "count word"
n=${1:-10}

tr -s ' ' '\n' \
    | grep -v '^$' \
    | sort \
    | uniq -c \
    | awk '{ print $1, $2 }' \
    | sort -r \
    | head -n "$n"
