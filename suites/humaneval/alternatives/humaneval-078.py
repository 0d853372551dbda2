def hex_key(num):
    return sum(1 for digit in num if int(digit, 16) in (2, 3, 5, 7, 11, 13))
