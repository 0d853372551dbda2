#!/usr/bin/env bash
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/s.csv" <<'CSV'
day,store,amount,team
mon,b-store,10.5,Zeta
mon,a-store,4,alpha
tue,b-store,-0.5,Zeta
tue,c-store,,alpha
wed,a-store,6.25,beta
CSV
got=$(bash ./colsum.sh "$tmp/s.csv" amount store) || { echo "non-zero exit"; exit 1; }
want="a-store 10.25
b-store 10.00
c-store 0.00"
[ "$got" = "$want" ] || { echo "group by store: expected"; echo "$want"; echo "got"; echo "$got"; exit 1; }
got=$(bash ./colsum.sh "$tmp/s.csv" amount team) || { echo "non-zero exit"; exit 1; }
want="Zeta 10.00
alpha 4.00
beta 6.25"
[ "$got" = "$want" ] || { echo "group by team (byte order): expected"; echo "$want"; echo "got"; echo "$got"; exit 1; }
printf 'k,v\r\nx,1\r\ny,2\r\nx,3\r\n' > "$tmp/crlf.csv"
got=$(bash ./colsum.sh "$tmp/crlf.csv" v k) || { echo "non-zero exit"; exit 1; }
want="x 4.00
y 2.00"
[ "$got" = "$want" ] || { echo "crlf grouped: expected"; echo "$want"; echo "got"; echo "$got" | od -c | head; exit 1; }
echo ok
