#!/usr/bin/env bash
set -euo pipefail
cat > merge_env.sh <<'EOF'
#!/usr/bin/env bash
# merge_env.sh BASE OVERRIDE: print the merged KEY=VALUE lines (BASE order, then new OVERRIDE keys)
awk '
    /^[[:space:]]*(#|$)/ { next }
    {
        line = $0
        sub(/^[[:space:]]*/, "", line)
        if (line ~ /^export[[:space:]]+/) sub(/^export[[:space:]]+/, "", line)
        eq = index(line, "=")
        if (eq == 0) next
        key = substr(line, 1, eq - 1); value = substr(line, eq + 1)
        gsub(/[[:space:]]/, "", key)
        if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        val[key] = value
    }
    END { for (i = 1; i <= n; i++) print order[i] "=" val[order[i]] }
' "$1" "$2"
EOF
