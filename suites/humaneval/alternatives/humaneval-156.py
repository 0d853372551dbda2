def int_to_mini_roman(number):
    digits = [("m", "", ""), ("c", "d", "m"), ("x", "l", "c"), ("i", "v", "x")]
    text = ""
    for place, (one, five, ten) in zip((1000, 100, 10, 1), digits):
        d = number // place % 10 if place < 1000 else number // 1000
        text += {0: "", 4: one + five, 9: one + ten}.get(d, (five if d >= 5 else "") + one * (d % 5))
    return text
