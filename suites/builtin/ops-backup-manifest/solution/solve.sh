#!/usr/bin/env bash
set -euo pipefail
cat > backup.sh <<'EOF'
#!/usr/bin/env bash
# backup.sh SRC DEST
src=$1; dest=$2
if [ ! -d "$src" ]; then
    echo "no such folder: $src" >&2
    exit 2
fi
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
cd "$src"
find . -type d -name cache -prune -o -type f ! -name '*.tmp' -print | LC_ALL=C sort > "$dest/.files"
tar -czf "$dest/backup.tar.gz" --no-recursion -T "$dest/.files"
xargs -d '\n' sha256sum < "$dest/.files" > "$dest/MANIFEST.sha256"
rm -f "$dest/.files"
echo "backed up $(wc -l < "$dest/MANIFEST.sha256") files"
EOF
