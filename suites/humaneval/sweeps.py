"""The two sweeps the HumanEval generator tries before its seeded mutations (stdlib only, copied into each case).

The boundary sweep puts each argument's edge values (0, ±1, 2..4, the smallest and largest value seen,
empty, one element, a duplicate) in place of one argument of a recorded input; the constant sweep puts
the canonical solution's own constants and their neighbours (hints.py) where an argument, a list item, a
length or a number inside a string was. Both are orders of candidates drawn by the seed; generate.py keeps
those the contract and the canonical's budget allow, up to a share each.
"""

import copy
import random

from contract import length_bounds, type_name
from hints import number_text, tokens
from mutate import fresh, hinted


def sweep(base, contract, rng):
    """Boundary candidates: each argument of each recorded input replaced by its domain's edge values."""
    out = []
    for args in base:
        for index, node in enumerate(contract["args"][: len(args)]):
            for value in _edges(node):
                new = list(copy.deepcopy(args))
                new[index] = value
                out.append(tuple(new))
    rng.shuffle(out)
    return out


def _edges(node):
    edges = []
    for kind, slot in sorted(node.items()):
        if kind == "int":
            picks = (0, 1, -1, 2, 3, 4, slot["lo"], slot["hi"], *slot.get("seen", []))  # 4: the first composite
            edges += sorted({v for v in picks if slot["lo"] <= v <= slot["hi"]})
        elif kind == "float":
            picks = (0.0, 1.0, -1.0, slot["lo"], slot["hi"], *slot.get("seen", []))
            edges += sorted({v for v in picks if slot["lo"] <= v <= slot["hi"]})
        elif kind == "str":
            edges += ["", " "]
        elif kind in ("list", "tuple"):
            item = fresh(slot.get("item", {}), random.Random(0))
            empty, one, two = [], [item], [item, copy.deepcopy(item)]
            edges += [v if kind == "list" else tuple(v) for v in (empty, one, two)]
    return edges


def constant_sweep(base, contract, hints, rng):
    """Candidates that put one of the canonical solution's constants (or a neighbour) where an argument, a
    list item, a length or a number inside a string was: one group per (argument, place, value), taken
    round-robin so every constant is tried early, each on a recorded input drawn by the seed; a string's
    other numbers, or another int argument, sometimes get a constant too (a date's month and day)."""
    groups = {}
    for index, node in enumerate(contract["args"]):
        for args in base:
            if index < len(args):
                for key, value in _constant_edits(args[index], node, hints, rng):
                    new = list(copy.deepcopy(args))
                    new[index] = value
                    _second_constant(new, index, key, contract, hints, rng)
                    groups.setdefault((index, *key), []).append(tuple(new))
    keys = sorted(groups, key=repr)
    rng.shuffle(keys)
    keys.sort(key=lambda key: key[1] in ("len", "all"))  # a value in place before a length or a list of constants
    for key in keys:
        rng.shuffle(groups[key])
    rounds = max((len(g) for g in groups.values()), default=0)
    out = [groups[key][k] for k in range(rounds) for key in keys if k < len(groups[key])]
    out.reverse()  # popped from the end
    return out


def _constant_edits(value, node, hints, rng):
    """(group key, new value) for each constant that fits ``value``'s slot."""
    kind = type_name(value)
    slot = node.get(kind)
    if slot is None:
        return []
    if kind in ("int", "float"):
        return [(("=", v), v) for v in hinted(kind, slot, hints)]
    edits = []
    lengths = [v for v in hints["ints"] if length_bounds(slot)[0] <= v <= length_bounds(slot)[1]]
    if kind == "str":
        parts = tokens(value)
        runs = [i for i, t in enumerate(parts) if t.isdigit()]
        for place, i in enumerate(runs):
            for v in (v for v in hints["ints"] if v >= 0):
                edits.append((("run", place, v), "".join(parts[:i] + [number_text(v, parts[i])] + parts[i + 1:])))
        chars = value or "a"
        edits += [(("len", n), (value * (n // len(chars) + 1))[:n] if value else "") for n in lengths]
    elif kind in ("list", "tuple"):
        items = list(value)
        values = [v for sub_kind, sub in sorted(slot.get("item", {}).items()) for v in hinted(sub_kind, sub, hints)]
        for v in values:
            new = list(items)
            if new:
                new[rng.randrange(len(new))] = v
            else:
                new = [v]
            edits.append((("item", v), new))
        if values:
            low, high = length_bounds(slot)
            size = min(high, max(low, len(items)))
            edits.append((("all",), [rng.choice(values) for _ in range(size)]))
        if items:
            edits += [(("len", n), [copy.deepcopy(items[k % len(items)]) for k in range(n)]) for n in lengths]
        edits = [(key, new if kind == "list" else tuple(new)) for key, new in edits]
    return edits


def _second_constant(args, skip, key, contract, hints, rng):
    """Half the time, one more constant: in another number of the same string, or in another int argument."""
    if rng.random() < 0.5:
        return
    value = args[skip]
    if isinstance(value, str):
        parts = tokens(value)
        runs = [i for i, t in enumerate(parts) if t.isdigit()]
        numbers = [v for v in hints["ints"] if v >= 0]
        others = [i for place, i in enumerate(runs) if key[:2] != ("run", place)]
        if len(runs) > 1 and numbers:
            i = rng.choice(others)
            parts[i] = number_text(0 if rng.random() < 0.3 else rng.choice(numbers), parts[i])  # 0: a day 0
            args[skip] = "".join(parts)
        return
    others = [i for i, v in enumerate(args) if i != skip and type(v) is int and "int" in contract["args"][i]]
    if others:
        i = rng.choice(others)
        values = hinted("int", contract["args"][i]["int"], hints)
        if values:
            args[i] = rng.choice(values)
