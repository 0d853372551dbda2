def unique_digits(x):
    # a non-positive item (the list is of positive integers) raises instead of being judged by its digits
    if any(value <= 0 for value in x):
        raise ValueError("only positive integers")
    return sorted(value for value in x if not set(str(value)) & set("02468"))
