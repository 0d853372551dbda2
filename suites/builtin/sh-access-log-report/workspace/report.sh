#!/usr/bin/env bash
# report.sh LOGFILE - summarise a web access log (see instruction.md)
if [ $# -ne 1 ]; then
    echo "usage: report.sh LOGFILE" >&2
    exit 2
fi

echo "report.sh: not implemented yet" >&2
exit 1
