#!/usr/bin/env bash
set -euo pipefail
cat > colsum.sh <<'EOF'
#!/usr/bin/env bash
# colsum.sh FILE COLUMN [GROUPCOL] - sum a CSV column, optionally per group
export LC_ALL=C
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: colsum.sh FILE COLUMN [GROUPCOL]" >&2
    exit 2
fi
file=$1 col=$2 grp=${3:-}
if [ ! -f "$file" ] || [ ! -r "$file" ]; then
    echo "colsum: cannot read $file" >&2
    exit 1
fi
tr -d '\r' < "$file" | awk -F, -v col="$col" -v grp="$grp" '
    NR == 1 {
        for (i = 1; i <= NF; i++) idx[$i] = i
        if (!(col in idx)) { print "colsum: no such column: " col > "/dev/stderr"; bad = 1; exit 1 }
        if (grp != "" && !(grp in idx)) { print "colsum: no such column: " grp > "/dev/stderr"; bad = 1; exit 1 }
        c = idx[col]; g = (grp != "") ? idx[grp] : 0
        next
    }
    $0 == "" { next }
    { v = $c + 0; total += v; if (g) { sums[$g] += v; seen[$g] = 1 } }
    END {
        if (bad) exit 1
        if (!g) { printf "%.2f\n", total; exit 0 }
        for (k in seen) printf "%s %.2f\n", k, sums[k] | "sort"
    }'
EOF
