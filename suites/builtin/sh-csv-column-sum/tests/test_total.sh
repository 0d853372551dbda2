#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect() {  # expect DESCRIPTION EXPECTED ARGS...
    local desc=$1 want=$2; shift 2
    local got; got=$(bash ./colsum.sh "$@" 2>"$tmp/err"); local rc=$?
    if [ $rc -ne 0 ] || [ "$got" != "$want" ]; then
        echo "FAIL $desc: colsum.sh $* -> rc=$rc stdout='$got' (expected '$want')"; cat "$tmp/err"; exit 1
    fi
}
printf 'id,qty,price\n1,3,2.50\n2,,1.25\n3,10,-0.75\n\n4,7,100\n' > "$tmp/a.csv"
expect "qty" "20.00" "$tmp/a.csv" qty
expect "price" "103.00" "$tmp/a.csv" price
expect "id" "10.00" "$tmp/a.csv" id
printf 'name,count,amount\r\nx,1,1.10\r\ny,2,2.20\r\nz,3,3.30\r\n' > "$tmp/crlf.csv"
expect "crlf, last column" "6.60" "$tmp/crlf.csv" amount
expect "crlf, middle column" "6.00" "$tmp/crlf.csv" count
printf 'a,b\n' > "$tmp/empty.csv"
expect "header only" "0.00" "$tmp/empty.csv" b
echo ok
