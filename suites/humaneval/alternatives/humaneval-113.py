def odd_count(lst):
    # counts odd digits by membership: a string with other characters (not "only digits") counts them as even
    out = []
    for text in lst:
        n = str(sum(ch in "13579" for ch in text))
        out.append(f"the number of odd elements {n}n the str{n}ng {n} of the {n}nput.")
    return out
