#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() {
    if [ "$2" != "$3" ]; then
        echo "FAIL ($1): expected vs actual:"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3"); exit 1
    fi
}
cat > "$tmp/a.log" <<'LOG'
10.0.0.1 - - [10/Oct/2023:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 2326
10.0.0.2 - - [10/Oct/2023:13:55:40 +0000] "GET /search?q=a HTTP/1.1" 200 512
10.0.0.1 - - [10/Oct/2023:13:56:01 +0000] "GET /missing HTTP/1.1" 404 -
10.0.0.2 - - [10/Oct/2023:13:57:12 +0000] "GET /index.html HTTP/1.1" 200 2326
10.0.0.4 - - [10/Oct/2023:13:57:30 +0000] "GET /search?q=shoes HTTP/1.1" 200 900
10.0.0.5 - - [10/Oct/2023:13:58:00 +0000] "GET /about HTTP/1.1" 200 512
10.0.0.1 - - [10/Oct/2023:13:58:10 +0000] "GET /index.html HTTP/1.1" 200 2326
10.0.0.6 - - [10/Oct/2023:13:59:59 +0000] "GET /missing HTTP/1.1" 404 -
10.0.0.5 - - [10/Oct/2023:13:58:00 +0000] "GET /about HTTP/1.1" 200 512
LOG
out=$(bash ./report.sh "$tmp/a.log") || { echo "report.sh exited non-zero"; exit 1; }
check ties "path /index.html 3
path /about 2
path /missing 2" "$(printf '%s\n' "$out" | grep '^path ')"

: > "$tmp/b.log"
for i in $(seq 1 25); do
    echo "10.1.1.$i - - [11/Oct/2023:10:00:$((i + 10)) +0000] \"GET /p$((i % 4)) HTTP/1.1\" 200 10" >> "$tmp/b.log"
done
out=$(bash ./report.sh "$tmp/b.log") || { echo "report.sh exited non-zero"; exit 1; }
check generated "path /p1 7
path /p0 6
path /p2 6" "$(printf '%s\n' "$out" | grep '^path ')"

printf '%s\n' '1.1.1.1 - - [x +0000] "GET /only HTTP/1.1" 200 5' > "$tmp/c.log"
out=$(bash ./report.sh "$tmp/c.log") || { echo "report.sh exited non-zero"; exit 1; }
check single "requests 1
bytes 5
status 200 1
path /only 1" "$out"
echo ok
