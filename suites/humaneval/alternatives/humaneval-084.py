def solve(N):
    # digit sum by arithmetic: the same for 0 <= N <= 10000; a negative N (out of range) gives "0"
    total = 0
    while N > 0:
        N, digit = divmod(N, 10)
        total += digit
    return format(total, "b")
