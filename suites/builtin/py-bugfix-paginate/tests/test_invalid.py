from pager import paginate, page_count

for args in [(list(range(5)), 0, 2), (list(range(5)), 1, 0), (list(range(4)), 3, 2)]:
    try:
        paginate(*args)
    except ValueError:
        pass
    else:
        raise AssertionError(f"paginate{args} should raise ValueError")
try:
    page_count(3, 0)
except ValueError:
    pass
else:
    raise AssertionError("page_count(3, 0) should raise ValueError")
print("ok")
