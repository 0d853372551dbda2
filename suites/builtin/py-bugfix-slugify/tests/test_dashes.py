from textkit import slugify

for args, kwargs, expected in [
    (("Hello,  World!",), {}, "hello-world"),
    (("a -- b",), {}, "a-b"),
    (("--Already--slugged--",), {}, "already-slugged"),
    (("foo  bar",), {"sep": "_"}, "foo_bar"),
    (("one,  two,  three",), {"max_length": 8}, "one-two"),
]:
    got = slugify(*args, **kwargs)
    assert got == expected, f"slugify{args} {kwargs} -> {got!r}, expected {expected!r}"
print("ok")
