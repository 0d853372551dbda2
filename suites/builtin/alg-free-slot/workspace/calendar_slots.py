"""Find free time in a day of bookings (minutes since midnight)."""


def first_free_slot(bookings, day_start, day_end, length):
    cursor = day_start
    for start, end in bookings:
        if start - cursor >= length:
            return cursor
        cursor = end
    return cursor if day_end - cursor >= length else None
