#!/usr/bin/env bash
set -euo pipefail
cat > dedupe.sh <<'EOF'
#!/usr/bin/env bash
# dedupe.sh [-i] [FILE...] - drop duplicate lines, keeping first occurrences in order
export LC_ALL=C
icase=0
if [ "${1:-}" = "-i" ]; then
    icase=1
    shift
fi
cat -- "$@" | awk -v icase="$icase" '
    { sub(/[ \t]+$/, ""); k = icase ? tolower($0) : $0 }
    !(k in seen) { seen[k] = 1; print }'
EOF
