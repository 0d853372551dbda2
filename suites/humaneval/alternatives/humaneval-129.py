def minPath(grid, k):
    n = len(grid)
    row, col = next((r, c) for r in range(n) for c in range(n) if grid[r][c] == 1)
    steps = [(row + dr, col + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    smallest = min(grid[r][c] for r, c in steps if 0 <= r < n and 0 <= c < n)
    return [1 if i % 2 == 0 else smallest for i in range(k)]
