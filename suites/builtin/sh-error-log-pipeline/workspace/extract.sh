#!/usr/bin/env bash
# extract.sh LOG - print ERROR entries as TSV: timestamp, component, message
grep ERROR "$1" | awk '{ print $1 "\t" $3 "\t" $4 }'
