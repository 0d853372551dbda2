#!/usr/bin/env bash
set -euo pipefail
cat > report.sh <<'EOF'
#!/usr/bin/env bash
# report.sh LOGFILE - summarise a web access log (see instruction.md)
if [ $# -ne 1 ]; then
    echo "usage: report.sh LOGFILE" >&2
    exit 2
fi
if [ ! -f "$1" ] || [ ! -r "$1" ]; then
    echo "report.sh: cannot read $1" >&2
    exit 1
fi
export LC_ALL=C
log=$1
awk 'NF >= 10 { n++; if ($10 != "-") b += $10 }
     END { printf "requests %d\nbytes %d\n", n, b }' "$log"
awk 'NF >= 10 { print $9 }' "$log" | sort -n | uniq -c | awk '{ print "status " $2 " " $1 }'
awk 'NF >= 10 { p = $7; sub(/\?.*/, "", p); print p }' "$log" | sort | uniq -c \
    | sort -k1,1nr -k2,2 | head -n 3 | awk '{ print "path " $2 " " $1 }'
EOF
