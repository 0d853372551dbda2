#!/usr/bin/env bash
set -euo pipefail
cat > extract.sh <<'EOF'
#!/usr/bin/env bash
# extract.sh LOG - print ERROR entries as TSV: timestamp, component, message
export LC_ALL=C
awk 'NF >= 4 && $2 == "ERROR" {
    comp = $3; gsub(/^\[|\]$/, "", comp)
    msg = substr($0, index($0, "]") + 1)
    sub(/^[ \t]+/, "", msg); sub(/[ \t\r]+$/, "", msg)
    print $1 "\t" comp "\t" msg
}' "$1"
EOF
cat > summarize.sh <<'EOF'
#!/usr/bin/env bash
# summarize.sh < errors.tsv - per-component error counts (see instruction.md)
export LC_ALL=C
awk -F'\t' 'NF >= 2 {
    c = $2; n[c]++
    if (!(c in first) || $1 < first[c]) first[c] = $1
    if (!(c in last) || $1 > last[c]) last[c] = $1
}
END { for (c in n) printf "%s\t%d\t%s\t%s\n", c, n[c], first[c], last[c] }' \
    | sort -t "$(printf '\t')" -k2,2nr -k1,1
EOF
