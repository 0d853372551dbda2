#!/usr/bin/env bash
# iniget.sh FILE SECTION KEY - print a value from an INI file
file=$1
section=$2
key=$3

grep "^$key=" "$file" | head -n 1 | cut -d= -f2-
