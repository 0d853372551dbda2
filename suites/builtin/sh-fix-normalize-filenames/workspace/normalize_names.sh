#!/usr/bin/env bash
# normalize_names.sh DIR - lowercase file names and replace spaces with "_"
dir=$1

for f in $(ls "$dir"); do
    new=$(echo "$f" | tr 'A-Z' 'a-z' | tr ' ' '_')
    if [ "$f" != "$new" ]; then
        mv "$dir/$f" "$dir/$new"
        echo "$f -> $new"
    fi
done
exit 0
