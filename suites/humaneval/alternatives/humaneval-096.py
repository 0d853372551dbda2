def count_up_to(n):
    # a sieve; a negative n (the docstring says non-negative) raises instead of returning []
    if n < 0:
        raise ValueError("n must be non-negative")
    sieve = [True] * max(n, 2)
    sieve[0] = sieve[1] = False
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = [False] * len(sieve[i * i::i])
    return [i for i in range(2, n) if sieve[i]]
