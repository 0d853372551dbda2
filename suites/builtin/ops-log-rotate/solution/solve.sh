#!/usr/bin/env bash
set -euo pipefail
cat > rotate.sh <<'EOF'
#!/usr/bin/env bash
# rotate.sh DIR NAME KEEP
dir=$1; name=$2; keep=$3
cd "$dir" || exit 1
[ -s "$name" ] || exit 0
# shift from the oldest down, so nothing is overwritten
for i in $(ls | sed -n "s/^$name\.\([0-9]*\)\.gz$/\1/p" | sort -rn); do
    if [ "$((i + 1))" -gt "$keep" ]; then
        rm -f "$name.$i.gz"
    else
        mv "$name.$i.gz" "$name.$((i + 1)).gz"
    fi
done
if [ -f "$name.1" ]; then
    if [ "$keep" -ge 2 ]; then gzip -c "$name.1" > "$name.2.gz"; fi
    rm -f "$name.1"
fi
mv "$name" "$name.1"
: > "$name"
EOF
