def digits(n):
    # digits by arithmetic; n <= 0 ("a positive integer n") gives 0 (no digits), where the canonical reads "-"
    product, seen = 1, False
    while n > 0:
        n, digit = divmod(n, 10)
        if digit % 2:
            product, seen = product * digit, True
    return product if seen else 0
