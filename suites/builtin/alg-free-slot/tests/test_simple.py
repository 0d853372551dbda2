from calendar_slots import first_free_slot

assert first_free_slot([], 0, 100, 30) == 0
assert first_free_slot([(0, 30)], 0, 100, 30) == 30
assert first_free_slot([(10, 20), (50, 60)], 0, 100, 30) == 20
assert first_free_slot([(0, 90)], 0, 100, 30) is None
print("ok")
