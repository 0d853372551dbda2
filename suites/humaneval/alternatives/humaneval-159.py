def eat(number, need, remaining):
    # min() of the two; a value outside 0 <= v <= 1000 raises
    if not all(0 <= value <= 1000 for value in (number, need, remaining)):
        raise ValueError("each of number, need, remaining is in 0..1000")
    eaten = min(need, remaining)
    return [number + eaten, remaining - eaten]
