#!/usr/bin/env bash
set -euo pipefail
cat > wordfreq.sh <<'EOF'
#!/usr/bin/env bash
# wordfreq.sh [N] < text  -- print the N most frequent words as "count word"
n=${1:-10}
export LC_ALL=C

tr -cs 'A-Za-z' '\n' \
    | tr 'A-Z' 'a-z' \
    | grep -v '^$' \
    | sort \
    | uniq -c \
    | awk '{ print $1, $2 }' \
    | sort -k1,1nr -k2,2 \
    | head -n "$n"
EOF
