import os
import tempfile

from abtest import analyse

got = analyse()
assert (got["z"], got["p_value"]) == (2.105, 0.0353), got
d = tempfile.mkdtemp()
path = os.path.join(d, "e.csv")
with open(path, "w") as f:
    f.write("user,variant,converted\n" + "".join(f"a{i},A,{int(i < 20)}\n" for i in range(100))
            + "".join(f"b{i},B,{int(i < 30)}\n" for i in range(100)))
small = analyse(path)
assert (small["rate_a"], small["rate_b"], small["z"], small["p_value"]) == (0.2, 0.3, 1.633, 0.1025), small
print("ok")
