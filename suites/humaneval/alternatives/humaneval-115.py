def max_fill(grid, capacity):
    # integer ceiling division; capacity outside 1 <= capacity <= 10 raises
    if not 1 <= capacity <= 10:
        raise ValueError("1 <= capacity <= 10")
    return sum(-(-sum(row) // capacity) for row in grid)
