def move_one_ball(arr):
    drops = sum(1 for i in range(len(arr)) if arr[i] > arr[(i + 1) % len(arr)])
    return drops <= 1
