"""Where a HumanEval problem's wrong solutions part from its right one: values read from its own code (stdlib only).

A comparison ``month > 12`` and its slip ``month > 11`` answer differently only when month is 12; ``gpa > 3.7``
and ``gpa >= 3.7`` only on 3.7 itself. The constants a canonical solution compares and counts against, and
their neighbours, are the cheapest boundary values there are, so the generator tries them as argument
values, list items, list and string lengths, and numbers inside strings. Copied into each case's hidden/
folder; read at generation time from problem.json, so nothing here depends on the host. Also the
string's own format: a string as runs of digits, letters and other characters (``tokens``), and
``in_format``, an edit that keeps that format (a date's month and day changed, a word swapped for
another word the tests use) where a character edit would only make noise.
"""

import ast

MAX_EACH = 48  # at most this many values of each kind, so a table of constants cannot crowd out the rest
MAX_ABS = 10**9


def literals(source):
    """{"ints": [...], "floats": [...], "strs": [...]}: the constants of ``source`` (docstrings left out),
    each int with its neighbours ±1, sorted, so the same source always gives the same hints."""
    tree = ast.parse(source)
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            docs.add(id(first.value))
    ints, floats, strs = set(), set(), set()
    for node in ast.walk(tree):
        value, sign = _constant(node)
        if value is None or id(node) in docs:
            continue
        if type(value) is int and abs(value) <= MAX_ABS:
            ints |= {sign * value - 1, sign * value, sign * value + 1}
        elif type(value) is float and abs(value) <= MAX_ABS and value == value:
            floats.add(sign * value)
        elif type(value) is str and 0 < len(value) <= 12:
            strs.add(value)
    return {"ints": _few(ints), "floats": _few(floats | {float(i) for i in ints if abs(i) <= 1000}),
            "strs": _few(strs, key=lambda s: (len(s), s))}


def _constant(node):
    """(value, sign) of a constant or a negated constant (``-1`` is ``UnaryOp(USub, 1)``), else (None, 1)."""
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) in (int, float)):
        return node.operand.value, -1
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, str):
        return node.value, 1
    return None, 1


def _few(values, key=None):
    """The smallest-magnitude MAX_EACH values: constants that matter are mostly small."""
    ordered = sorted(values, key=key or (lambda v: (abs(v), v)))[:MAX_EACH]
    return sorted(ordered, key=key)


def tokens(text):
    """A string as runs: digits, letters, spaces, single other characters ('03-11-2000' → 03 - 11 - 2000)."""
    out, i = [], 0
    while i < len(text):
        j = i + 1
        kind = _kind(text[i])
        if kind in ("digit", "alpha", "space"):
            while j < len(text) and _kind(text[j]) == kind:
                j += 1
        out.append(text[i:j])
        i = j
    return out


def _kind(char):
    if char in "0123456789":
        return "digit"
    if char.isalpha():
        return "alpha"
    return "space" if char == " " else "other"


def number_text(value, like):
    """``value`` written like the digit run ``like``: zero-padded to its width when it was ('03', '0012')."""
    text = str(value)
    if len(like) > 1 and like.startswith("0") and len(text) < len(like):
        text = text.zfill(len(like))
    return text


def in_format(text, slot, rng, hints):
    """The string in its own format: one or every number inside it replaced ('03-11-2000' → '12-29-2000'),
    or a word replaced by, or joined with, another word the tests use ('six five' → 'seven five')."""
    parts = tokens(text)
    digits = [i for i, t in enumerate(parts) if t.isdigit()]
    words = [i for i, t in enumerate(parts) if t.isalpha()]
    vocabulary = slot.get("words", [])
    if digits and (not words or not vocabulary or rng.random() < 0.6):
        chosen = digits if rng.random() < 0.4 else rng.sample(digits, rng.randint(1, len(digits)))
        numbers = [v for v in (hints or {}).get("ints", []) if v >= 0]
        for i in chosen:
            old = int(parts[i])
            pick = rng.randrange(6)
            if pick < 3 and numbers:
                new = rng.choice(numbers)
            elif pick == 3:
                new = rng.choice([0, 1, old + 1, max(0, old - 1), old * 10])
            elif pick == 4:
                parts[i] = parts[i] + "0" * rng.randint(1, 3)  # trailing zeros: '10.5' → '10.500'
                continue
            else:
                new = rng.randrange(10 ** len(parts[i]))
            parts[i] = number_text(new, parts[i])
        return "".join(parts)
    if words and vocabulary:
        i = rng.choice(words)
        op = rng.randrange(3)
        if op == 0:
            parts[i] = rng.choice(vocabulary)
        elif op == 1:  # another word the tests use, beside this one
            word = rng.choice(vocabulary)
            if rng.random() < 0.5:
                parts.insert(i, word + " ")
            else:
                parts.insert(i + 1, " " + word)
        else:
            for j in words:
                if rng.random() < 0.5:
                    parts[j] = rng.choice(vocabulary)
        return "".join(parts)
    return text
