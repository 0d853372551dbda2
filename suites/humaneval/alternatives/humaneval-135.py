def can_arrange(arr):
    for index in range(len(arr) - 1, 0, -1):
        if arr[index] < arr[index - 1]:
            return index
    return -1
