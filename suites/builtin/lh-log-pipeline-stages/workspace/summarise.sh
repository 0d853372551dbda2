#!/usr/bin/env bash
# summarise.sh: per-path count, errors, average and max latency from "path<TAB>status<TAB>ms" rows
awk -F'\t' '
    { n[$1]++; if ($2 > 500) e[$1]++; sum[$1] += $3; if ($3 > mx[$1]) mx[$1] = $3 }
    END { for (p in n) printf "%s %d %d %d %d\n", p, n[p], e[p], sum[p] / n[p], mx[p] }
'
