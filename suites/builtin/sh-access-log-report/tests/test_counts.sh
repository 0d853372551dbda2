#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" != "$3" ]; then
        echo "FAIL ($1): expected vs actual:"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3"); exit 1
    fi
}
cat > "$tmp/a.log" <<'LOG'
10.0.0.1 - - [10/Oct/2023:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 2326
10.0.0.2 - - [10/Oct/2023:13:55:40 +0000] "GET /about HTTP/1.1" 200 512
10.0.0.1 - - [10/Oct/2023:13:56:01 +0000] "GET /missing HTTP/1.1" 404 -
10.0.0.3 - - [10/Oct/2023:13:56:09 +0000] "POST /api/login HTTP/1.1" 500 128
10.0.0.2 - - [10/Oct/2023:13:57:12 +0000] "GET /index.html HTTP/1.1" 200 2326
10.0.0.4 - - [10/Oct/2023:13:57:30 +0000] "GET /search?q=shoes HTTP/1.1" 200 900
10.0.0.4 - - [10/Oct/2023:13:57:31 +0000] "GET /search?q=hats HTTP/1.1" 304 0
garbage line
10.0.0.5 - - [10/Oct/2023:13:58:00 +0000] "GET /about HTTP/1.1" 200 512
10.0.0.1 - - [10/Oct/2023:13:58:10 +0000] "GET /index.html HTTP/1.1" 200 2326
10.0.0.6 - - [10/Oct/2023:13:59:59 +0000] "GET /missing HTTP/1.1" 404 -
LOG
out=$(bash ./report.sh "$tmp/a.log") || { echo "report.sh exited non-zero"; exit 1; }
check fixture-a "requests 10
bytes 9030
status 200 6
status 304 1
status 404 2
status 500 1" "$(printf '%s\n' "$out" | grep -E '^(requests|bytes|status) ')"

: > "$tmp/b.log"
for i in $(seq 1 25); do
    code=200; [ $((i % 5)) -eq 0 ] && code=503
    echo "10.1.1.$i - - [11/Oct/2023:10:00:$((i + 10)) +0000] \"GET /p$((i % 4)) HTTP/1.1\" $code $((i * 10))" >> "$tmp/b.log"
done
out=$(bash ./report.sh "$tmp/b.log") || { echo "report.sh exited non-zero"; exit 1; }
check fixture-b "requests 25
bytes 3250
status 200 20
status 503 5" "$(printf '%s\n' "$out" | grep -E '^(requests|bytes|status) ')"

printf 'short line\n' > "$tmp/c.log"
out=$(bash ./report.sh "$tmp/c.log") || { echo "report.sh exited non-zero"; exit 1; }
check no-valid-lines "requests 0
bytes 0" "$out"
echo ok
