"""Roman numerals for the clock-face renderer."""


def to_roman(n):
    raise NotImplementedError


def from_roman(text):
    raise NotImplementedError
