"""Input contract of a HumanEval problem: which argument tuples hidden tests may use (stdlib only).

The default contract is derived from what the problem's own check() feeds the canonical solution:
per argument, the types seen, integer and float ranges, string lengths and characters (a whole
character class — lower, upper, digits — only where the tests use at least ``CLASS_MIN`` of its
members, else exactly the characters seen), list lengths, and whether lists were always sorted,
duplicate-free, of one fixed length, or rectangular; across arguments, lengths that were always
equal and measures (an int's value, a sequence's length) that were always ordered. A case may add
a predicate (hidden/accepts.py, ``accepts(*args) -> bool``) for what types cannot say (balanced
brackets, a permutation grid); ``DERIVED = False`` there drops the derived part. The rules the
docstring states in words (stated.py: "1 <= n <= 100", "a non-empty list of positive integers",
"only lowercase letters") are the contract's "stated" part and bind every input too. Copied into the
case's hidden/ folder; the importer derives contract.json with ``derive``.
"""

import ast
import copy
import random
import string

if __package__:  # nightshift.suites.humaneval.contract, as the importer derives contract.json
    from .hints import tokens
    from .stated import holds
else:  # a file in a case's hidden/ folder, beside hints.py
    from hints import tokens
    from stated import holds

CLASS_MIN = {"lower": 6, "upper": 6, "digit": 4}
CLASSES = {"lower": string.ascii_lowercase, "upper": string.ascii_uppercase, "digit": string.digits}
SMALL_HI = 100
SMALL_SPAN = 50  # a problem's lone int argument (fib(n), tested up to 12) may take this many values at least
MAX_WORDS = 64
MIN_SEEN = 4  # a trait (sorted, unique, fixed length, a relation) holds only if seen at least this often


def type_name(value):
    return type(value).__name__


def _merge(node, value):
    """Fold one observed value into a domain node (a dict keyed by type name)."""
    kind = type_name(value)
    slot = node.setdefault(kind, {})
    slot["count"] = slot.get("count", 0) + 1
    if kind in ("int", "float"):
        slot["lo"] = min(slot.get("lo", value), value)
        slot["hi"] = max(slot.get("hi", value), value)
    elif kind == "str":
        slot["lens"] = sorted(set(slot.get("lens", [])) | {len(value)})
        slot["chars"] = "".join(sorted(set(slot.get("chars", "")) | set(value)))
        # the words the tests use, so a mutation can swap in a real one ('seven' for 'six'), not a letter salad
        words = set(slot.get("words", [])) | {t for t in tokens(value) if t.isalpha()}
        slot["words"] = sorted(words, key=lambda w: (len(w), w))[:MAX_WORDS]
    elif kind in ("list", "tuple"):
        _merge_sequence(slot, value)
    elif kind == "dict":
        slot["lens"] = sorted(set(slot.get("lens", [])) | {len(value)})
        for key, item in value.items():
            _merge(slot.setdefault("key", {}), key)
            _merge(slot.setdefault("value", {}), item)
    return node


def _merge_sequence(slot, value):
    slot["lens"] = sorted(set(slot.get("lens", [])) | {len(value)})
    if len(value) >= 2:
        slot["multi"] = slot.get("multi", 0) + 1
        try:
            slot["asc"] = slot.get("asc", True) and list(value) == sorted(value)
            slot["desc"] = slot.get("desc", True) and list(value) == sorted(value, reverse=True)
        except TypeError:
            slot["asc"] = slot["desc"] = False
        slot["unique"] = slot.get("unique", True) and len({repr(v) for v in value}) == len(value)
    rows = [len(v) for v in value if isinstance(v, (list, tuple))]
    if rows and len(rows) == len(value):
        slot["rect"] = slot.get("rect", True) and len(set(rows)) == 1
        slot["square"] = slot.get("square", True) and set(rows) == {len(value)}
    else:
        slot["rect"] = slot["square"] = False
    for item in value:
        _merge(slot.setdefault("item", {}), item)


def _measure(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, (str, list, tuple, dict)):
        return len(value)
    return None


def derive(inputs):
    """The default contract (a JSON-able dict) from the argument tuples the problem's tests used."""
    if not inputs:
        return {"nargs": [], "args": [], "equal_len": [], "le": []}
    nargs = sorted({len(args) for args in inputs})
    width = max(nargs)
    args = [{} for _ in range(width)]
    for call in inputs:
        for index, value in enumerate(call):
            _merge(args[index], value)
    for node in args:
        _widen(node, top=True, lone=width == 1)
    equal, ordered = [], []
    if len(inputs) >= MIN_SEEN:
        for i in range(width):
            for j in range(width):
                pairs = [(_measure(c[i]), _measure(c[j])) for c in inputs if len(c) > max(i, j)]
                if i == j or len(pairs) < MIN_SEEN or any(a is None or b is None for a, b in pairs):
                    continue
                sized = all(isinstance(c[i], (str, list, tuple)) and isinstance(c[j], (str, list, tuple))
                            for c in inputs)
                if i < j and sized and all(a == b for a, b in pairs):
                    equal.append([i, j])
                elif all(a <= b for a, b in pairs) and not all(a == b for a, b in pairs):
                    ordered.append([i, j])
    return {"nargs": nargs, "args": args, "equal_len": equal, "le": ordered}


def _widen(node, top=False, lone=False):
    """Numbers may go half their tested spread beyond it, never across zero unless the tests did; a problem's
    lone small int argument (fib(n)) to twice the largest tested value, and to at least SMALL_SPAN values."""
    for kind, slot in node.items():
        if kind in ("int", "float"):
            lo, hi = slot["lo"], slot["hi"]
            slot["seen"] = [lo, hi]
            wide = max(2, (hi - lo) // 2) if kind == "int" else max(1.0, (hi - lo) / 2)
            if top and kind == "int" and 0 < hi <= SMALL_HI:
                wide = max(wide, hi)  # a top-level small int (n up to 12) may go to twice the tests' largest
                if lone:
                    wide = max(wide, lo + SMALL_SPAN - hi)
            slot["lo"], slot["hi"] = lo - wide, hi + wide
            if lo >= 0:
                slot["lo"] = max(slot["lo"], 0 if lo == 0 or kind == "float" else 1)
            if hi <= 0:
                slot["hi"] = min(slot["hi"], 0 if hi == 0 or kind == "float" else -1)
        for child in ("item", "key", "value"):
            if isinstance(slot, dict) and child in slot:
                _widen(slot[child])


def traits_hold(slot):
    """Sortedness and uniqueness bind only when the tests showed them often enough to mean it."""
    return slot.get("multi", 0) >= MIN_SEEN


def allowed_chars(slot):
    """Characters a string may use: every class the tests used widely, plus each character seen."""
    chars = set(slot.get("chars", ""))
    for name, members in CLASSES.items():
        if len(chars & set(members)) >= CLASS_MIN[name]:
            chars |= set(members)
    return chars


def length_bounds(slot):
    """(min, max) length: empty only if the tests used empty, else down to one; up to twice the longest + 4."""
    lens = slot.get("lens", [0])
    if _fixed_length(slot):
        return lens[0], lens[0]
    return min(min(lens), 1), 2 * max(lens) + 4


def _fixed_length(slot):
    return len(slot.get("lens", [])) == 1 and slot.get("count", 0) >= MIN_SEEN + 1


def _fits(value, node):
    kind = type_name(value)
    if kind not in node:
        return False
    slot = node[kind]
    if kind in ("int", "float"):
        return slot["lo"] <= value <= slot["hi"] and value == value
    if kind == "str":
        low, high = length_bounds(slot)
        return low <= len(value) <= high and set(value) <= allowed_chars(slot)
    if kind in ("list", "tuple"):
        return _fits_sequence(value, slot)
    if kind == "dict":
        low, high = length_bounds(slot)
        return (low <= len(value) <= high and all(_fits(k, slot.get("key", {})) for k in value)
                and all(_fits(v, slot.get("value", {})) for v in value.values()))
    return True


def _fits_sequence(value, slot):
    low, high = length_bounds(slot)
    if not low <= len(value) <= high:
        return False
    if not all(_fits(item, slot.get("item", {})) for item in value):
        return False
    if traits_hold(slot) and len(value) >= 2:
        if slot.get("asc") and list(value) != sorted(value):
            return False
        if slot.get("desc") and list(value) != sorted(value, reverse=True):
            return False
        if slot.get("unique") and len({repr(v) for v in value}) != len(value):
            return False
    rows = [len(v) for v in value if isinstance(v, (list, tuple))]
    if slot.get("rect") and value and len(set(rows)) != 1:
        return False
    return not (slot.get("square") and value and set(rows) != {len(value)})


def accepts(contract, args):
    """True when ``args`` is in the derived contract: types, ranges, shapes and cross-argument relations."""
    if not contract["nargs"] or len(args) not in contract["nargs"]:
        return False
    if not all(_fits(value, node) for value, node in zip(args, contract["args"], strict=False)):
        return False
    for i, j in contract["equal_len"]:
        if len(args[i]) != len(args[j]):
            return False
    for i, j in contract["le"]:
        a, b = _measure(args[i]), _measure(args[j])
        if a is None or b is None or a > b:
            return False
    # what the docstring states in words (stated.py): every rule, on whichever argument it names
    return all(holds(rule, args) for rule in contract.get("stated", []))


def _roundtrips(value):
    try:
        text = repr(value)
        return len(text) <= 2000 and ast.literal_eval(text) == value and repr(ast.literal_eval(text)) == text
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def recorded_inputs(problem, namespace, function):
    """Argument tuples the problem's check() passes to the candidate, in order, without repeats."""
    seen, found = set(), []

    def recorder(*args):
        key = repr(args)
        if key not in seen and _roundtrips(args):
            seen.add(key)
            found.append(copy.deepcopy(args))
        return function(*args)

    test_ns = dict(namespace)
    exec(problem["test"], test_ns)
    state = random.getstate()
    random.seed(0)  # a few checks draw random inputs from the global generator
    try:
        test_ns["check"](recorder)
    except Exception:
        pass
    finally:
        random.setstate(state)
    return found
