# fields.awk: "path<TAB>status<TAB>ms" from key=value log lines
{
    split($4, p, "="); split($5, s, "="); split($6, m, "=")
    print p[2] "\t" s[2] "\t" m[2]
}
