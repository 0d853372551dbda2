"""The original, slow implementation: what the timing step measures the speedup against."""



def count_pairs(values, target):
    """How many index pairs i < j have values[i] + values[j] == target."""
    count = 0
    for i in range(len(values)):
        for j in range(i + 1, len(values)):
            if values[i] + values[j] == target:
                count += 1
    return count
