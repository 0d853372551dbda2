#!/usr/bin/env bash
set -euo pipefail
cat > normalize_names.sh <<'EOF'
#!/usr/bin/env bash
# normalize_names.sh DIR - lowercase file names and replace spaces with "_"
export LC_ALL=C
dir=${1:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "usage: normalize_names.sh DIR (not a directory: '$dir')" >&2
    exit 2
fi

find "$dir" -mindepth 1 -maxdepth 1 -type f -printf '%f\n' | sort | while IFS= read -r f; do
    new=$(printf '%s' "$f" | tr 'A-Z' 'a-z' | tr -s ' ' '_')
    [ "$f" = "$new" ] && continue
    if [ -e "$dir/$new" ]; then
        echo "skip: $f" >&2
        continue
    fi
    mv -- "$dir/$f" "$dir/$new"
    echo "$f -> $new"
done
exit 0
EOF
