#!/usr/bin/env bash
set -euo pipefail
cat > ini2env.sh <<'EOF'
#!/usr/bin/env bash
# ini2env.sh FILE: INI keys as NAME='value' lines, SECTION_KEY names
awk '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    function norm(s) { s = toupper(trim(s)); gsub(/[^A-Z0-9_]/, "_", s); return s }
    /^[ \t]*([;#]|$)/ { next }
    /^[ \t]*\[/ { s = $0; sub(/^[ \t]*\[/, "", s); sub(/\][ \t]*$/, "", s); prefix = norm(s) "_"; next }
    {
        eq = index($0, "="); if (eq == 0) next
        key = norm(substr($0, 1, eq - 1)); value = trim(substr($0, eq + 1))
        gsub(/\047/, "\047\\\047\047", value)
        print prefix key "=\047" value "\047"
    }
' "$1"
EOF
