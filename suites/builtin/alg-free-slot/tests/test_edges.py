from calendar_slots import first_free_slot

assert first_free_slot([(-30, 70)], 60, 200, 30) == 70
assert first_free_slot([(150, 400)], 60, 200, 30) == 60
assert first_free_slot([(100, 130)], 60, 130, 40) == 60
assert first_free_slot([(90, 130)], 60, 130, 40) is None
assert first_free_slot([(0, 10)], 60, 120, 60) == 60
print("ok")
