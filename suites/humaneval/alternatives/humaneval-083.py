def starts_one_ends(n):
    # n < 1 ("a positive integer n") raises instead of returning a fraction
    if n < 1:
        raise ValueError("n must be positive")
    return 1 if n == 1 else 2 * 9 * 10 ** (n - 2)
