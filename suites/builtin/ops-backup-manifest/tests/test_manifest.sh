#!/usr/bin/env bash
d=$(mktemp -d)
bash backup.sh site "$d" >/dev/null || { echo "backup failed"; exit 1; }
expected=$(cd site && sha256sum ./index.html ./notes/a.txt)
[ "$(cat "$d/MANIFEST.sha256")" = "$expected" ] || { echo "manifest:"; cat "$d/MANIFEST.sha256"; exit 1; }
mkdir "$d/x" && tar -xzf "$d/backup.tar.gz" -C "$d/x" && (cd "$d/x" && sha256sum -c --quiet "$d/MANIFEST.sha256") || { echo "manifest does not match the archive"; exit 1; }
echo ok
