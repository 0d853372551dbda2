def sort_numbers(numbers: str) -> str:
    names = "zero one two three four five six seven eight nine".split()
    words = numbers.split()
    return " ".join(sorted(words, key=names.index))
