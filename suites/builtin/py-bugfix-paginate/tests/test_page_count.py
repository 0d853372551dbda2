from pager import page_count

for total, per, expected in [(10, 4, 3), (8, 4, 2), (1, 4, 1), (0, 5, 1), (101, 10, 11), (3, 1, 3)]:
    got = page_count(total, per)
    assert got == expected, f"page_count({total}, {per}) -> {got}, expected {expected}"
print("ok")
