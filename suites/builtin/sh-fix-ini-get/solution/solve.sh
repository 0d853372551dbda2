#!/usr/bin/env bash
set -euo pipefail
cat > iniget.sh <<'EOF'
#!/usr/bin/env bash
# iniget.sh FILE SECTION KEY - print a value from an INI file
if [ $# -ne 3 ]; then
    echo "usage: iniget.sh FILE SECTION KEY" >&2
    exit 2
fi
file=$1 section=$2 key=$3
if [ ! -f "$file" ] || [ ! -r "$file" ]; then
    echo "iniget: cannot read $file" >&2
    exit 2
fi
export LC_ALL=C
awk -v want_s="$section" -v want_k="$key" '
    function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
    { line = trim($0) }
    line == "" || line ~ /^[;#]/ { next }
    line ~ /^\[.*\]$/ { cur = trim(substr(line, 2, length(line) - 2)); insec = 1; next }
    insec && cur == want_s && index(line, "=") > 0 {
        eq = index(line, "=")
        k = trim(substr(line, 1, eq - 1))
        if (k == want_k) { val = trim(substr(line, eq + 1)); found = 1 }
    }
    END { if (found) { print val; exit 0 } exit 1 }' "$file"
EOF
