from textkit import slugify

cases = [
    (("Hello World",), {}, "hello-world"),
    (("  Leading and trailing  ",), {}, "leading-and-trailing"),
    (("Release 2.0",), {}, "release-2-0"),
    (("hello world",), {"max_length": 7}, "hello-w"),
    (("hello world",), {"max_length": 6}, "hello"),
    (("Snake Case",), {"sep": "_"}, "snake_case"),
]
for args, kwargs, expected in cases:
    got = slugify(*args, **kwargs)
    assert got == expected, f"slugify{args} {kwargs} -> {got!r}, expected {expected!r}"
print("ok")
