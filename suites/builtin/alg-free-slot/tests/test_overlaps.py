from calendar_slots import first_free_slot

assert first_free_slot([(50, 60), (10, 20)], 0, 100, 30) == 20
assert first_free_slot([(0, 40), (10, 20)], 0, 100, 30) == 40
assert first_free_slot([(0, 40), (30, 70), (60, 65)], 0, 100, 30) == 70
assert first_free_slot([(0, 40), (30, 80)], 0, 100, 30) is None
print("ok")
