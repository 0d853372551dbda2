def max_element(l: list):
    best = l[0]
    for value in l[1:]:
        if value > best:
            best = value
    return best
