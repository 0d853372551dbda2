def add_elements(arr, k):
    total = 0
    for value in arr[:k]:
        if -99 <= value <= 99:
            total += value
    return total
