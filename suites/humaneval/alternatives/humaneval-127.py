def intersection(interval1, interval2):
    length = min(interval1[1], interval2[1]) - max(interval1[0], interval2[0])
    if length < 2:
        return "NO"
    return "NO" if any(length % d == 0 for d in range(2, int(length ** 0.5) + 1)) else "YES"
