import random
from spans.intervals import covered_length

assert covered_length([(0, 10), (5, 15), (20, 21)]) == 16
assert covered_length([]) == 0
assert covered_length([(3, 3)]) == 0
assert covered_length([(1, 2), (2, 3)]) == 2
rng = random.Random(7)
for _ in range(50):
    ivs = [(a, a + rng.randint(0, 6)) for a in (rng.randint(0, 40) for _ in range(8))]
    cells = set()
    for a, b in ivs:
        cells.update(range(a, b))
    got = covered_length(ivs)
    assert got == len(cells), f"covered_length({ivs}) -> {got}, expected {len(cells)}"
print("ok")
