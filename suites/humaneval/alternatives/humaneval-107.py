def even_odd_palindrome(n):
    # counts palindromes by construction; n outside 1 <= n <= 10^3 raises
    if not 1 <= n <= 1000:
        raise ValueError("1 <= n <= 10^3")
    found = [p for p in range(1, n + 1) if str(p) == str(p)[::-1]]
    odd = sum(p % 2 for p in found)
    return (len(found) - odd, odd)
