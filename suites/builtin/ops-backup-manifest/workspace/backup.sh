#!/usr/bin/env bash
# backup.sh SRC DEST
src=$1; dest=$2
if [ ! -d "$src" ]; then
    echo "no such folder: $src" >&2
    exit 2
fi
mkdir -p "$dest"
tar -czf "$dest/backup.tar.gz" "$src"
find "$src" -type f -exec sha256sum {} \; > "$dest/MANIFEST.sha256"
echo "backed up $(wc -l < "$dest/MANIFEST.sha256") files"
