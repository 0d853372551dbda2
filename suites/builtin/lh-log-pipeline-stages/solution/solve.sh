#!/usr/bin/env bash
set -euo pipefail
cat > extract.sh <<'EOF'
#!/usr/bin/env bash
# extract.sh DIR: well-formed log lines of DIR/*.log, /health dropped
for f in $(ls "$1"/*.log | LC_ALL=C sort); do
    grep -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z ' "$f" || true
done | grep -v 'path=/health\( \|$\)' || true
EOF
cat > fields.awk <<'EOF'
# fields.awk: "path<TAB>status<TAB>ms" from key=value log lines
{
    delete kv
    for (i = 2; i <= NF; i++) { eq = index($i, "="); if (eq) kv[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
    print kv["path"] "\t" kv["status"] "\t" kv["ms"]
}
EOF
cat > summarise.sh <<'EOF'
#!/usr/bin/env bash
# summarise.sh: per-path count, errors, average and max latency from "path<TAB>status<TAB>ms" rows
awk -F'\t' '
    { n[$1]++; if ($2 + 0 >= 500) e[$1]++; sum[$1] += $3; if (!($1 in mx) || $3 + 0 > mx[$1]) mx[$1] = $3 + 0 }
    END { for (p in n) printf "%s %d %d %d %d\n", p, n[p], e[p] + 0, int(sum[p] / n[p] + 0.5), mx[p] }
' | LC_ALL=C sort
EOF
