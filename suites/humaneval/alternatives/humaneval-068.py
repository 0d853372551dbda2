def pluck(arr):
    # one pass; a negative node value (outside "0 <= node.value") would be ranked like any other
    best = None
    for index, value in enumerate(arr):
        if value % 2 == 0 and (best is None or value < best[0]):
            best = [value, index]
    return best or []
