"""Contract-aware input mutation for HumanEval hidden tests (stdlib only, copied into each case).

Every edit is drawn from the argument's derived domain (contract.py), so it reaches what plain
type-preserving mutation never does: boundary values (0, ±1, the smallest and largest value the
tests used, empty, a single element, duplicates), the constants of the canonical solution and their
neighbours (hints.py: where ``<`` and ``<=`` part), sign changes and characters the input did not
contain where the domain allows them, strings edited in the format the tests use (a number inside
a string replaced by another, a word by another word the tests use), several arguments changed at
once, and arguments swapped or permuted. Lists and strings are repaired toward their domain (sorted,
duplicate-free, within length) rather than thrown away, so most candidates survive the contract.
``hints`` is hints.literals() of the canonical solution, or None.
"""

import copy
import math

from contract import allowed_chars, length_bounds, traits_hold, type_name
from hints import in_format

NO_HINTS = {"ints": [], "floats": [], "strs": []}


def hinted(kind, slot, hints):
    """The hint values that fit a numeric slot's range (the constants a solution compares against)."""
    if kind not in ("int", "float"):
        return []
    values = (hints or NO_HINTS)["ints" if kind == "int" else "floats"]
    return [v for v in values if slot["lo"] <= v <= slot["hi"]]


def random_int(slot, rng):
    """Uniform over the range, or (as often) log-uniform in magnitude, so a wide range still yields small values."""
    lo, hi = slot["lo"], slot["hi"]
    if hi - lo > 100 and rng.random() < 0.5:
        top = max(abs(lo), abs(hi))
        magnitude = int(10 ** rng.uniform(0, math.log10(top + 1)))
        value = magnitude if lo >= 0 or (hi > 0 and rng.random() < 0.5) else -magnitude
        return min(hi, max(lo, value))
    return rng.randint(lo, hi)


def _int_candidates(value, slot, hints=None):
    lo, hi = slot["lo"], slot["hi"]
    picks = [0, 1, -1, 2, lo, hi, lo + 1, hi - 1, value + 1, value - 1, -value, value * 2, value // 2,
             (lo + hi) // 2, *slot.get("seen", [])]
    return [p for p in picks if lo <= p <= hi] + hinted("int", slot, hints)


def fresh(node, rng, depth=0, hints=None):
    """A new value from a domain node, sometimes on its boundary."""
    kinds = sorted(node)
    if not kinds:
        return 0
    kind = rng.choice(kinds)
    slot = node[kind]
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "NoneType":
        return None
    if kind == "int":
        if rng.random() < 0.4:
            return rng.choice(_int_candidates(slot["lo"], slot, hints) or [slot["lo"]])
        return random_int(slot, rng)
    if kind == "float":
        if rng.random() < 0.4:
            return rng.choice([slot["lo"], slot["hi"]] + [v for v in (0.0, 1.0, -1.0) if slot["lo"] <= v <= slot["hi"]]
                              + hinted("float", slot, hints) * 2)
        return round(rng.uniform(slot["lo"], slot["hi"]), rng.choice([0, 1, 2]))
    if kind == "str":
        low, high = length_bounds(slot)
        chars = sorted(allowed_chars(slot))
        size = rng.randint(low, max(low, min(high, low + 8)))
        return "".join(rng.choice(chars) for _ in range(size)) if chars else ""
    if kind in ("list", "tuple"):
        low, high = length_bounds(slot)
        size = rng.randint(low, max(low, min(high, low + 5)))
        items = [fresh(slot.get("item", {}), rng, depth + 1, hints) for _ in range(size)] if depth < 3 else []
        return repair(items if kind == "list" else tuple(items), node)
    if kind == "dict":
        return {}
    return None


def mutate_value(value, node, rng, hints=None):
    """One edit of ``value`` within its domain node (or a fresh value when its type is not in the node)."""
    kind = type_name(value)
    if kind not in node:
        return fresh(node, rng, hints=hints)
    slot = node[kind]
    if kind == "bool":
        return not value
    if kind == "int":
        picks = _int_candidates(value, slot, hints)
        if rng.random() < 0.3 or not picks:
            return random_int(slot, rng)
        return rng.choice(picks)
    if kind == "float":
        picks = [value + 0.5, value - 0.5, -value, value * 1.5, value / 2, float(round(value)), slot["lo"],
                 slot["hi"], value + 1e-3, round(rng.uniform(slot["lo"], slot["hi"]), 2), 0.0]
        picks = [p for p in picks if slot["lo"] <= p <= slot["hi"]] + hinted("float", slot, hints)
        return rng.choice(picks or [value])
    if kind == "str":
        return repair(_mutate_str(value, slot, rng, hints), node)
    if kind in ("list", "tuple"):
        return repair(_mutate_seq(value, slot, rng, hints), node)
    if kind == "dict":
        return _mutate_dict(value, slot, rng, hints)
    return value


def mirrored(items):
    """A palindrome from the first half ('abc' → 'aba' or 'abba'): the shape palindrome and balance checks
    turn on, which random edits almost never make."""
    half = items[: (len(items) + 1) // 2]
    tail = half[::-1] if len(items) % 2 == 0 else half[:-1][::-1]
    return half + tail


def _hint_lengths(slot, hints):
    """Lengths the solution's constants point at (``len(word) < 3``), within the slot's bounds."""
    low, high = length_bounds(slot)
    return [v for v in (hints or NO_HINTS)["ints"] if low <= v <= high]


def _resize(items, size, grow, rng):
    """``items`` cut or grown (by ``grow()``) to ``size``."""
    items = list(items[:size])
    while len(items) < size:
        items.insert(rng.randrange(len(items) + 1), grow())
    return items


def _mutate_str(text, slot, rng, hints=None):
    chars = sorted(allowed_chars(slot)) or [" "]
    words = text.split(" ")
    op = rng.randrange(15)
    if op >= 10 and op <= 11:
        return in_format(text, slot, rng, hints)
    if op == 14 and text:
        return mirrored(text)
    if op == 12:
        strings = [h for h in (hints or NO_HINTS)["strs"] if set(h) <= set(chars)]
        if strings:
            cut = rng.randrange(len(text) + 1)
            return text[:cut] + rng.choice(strings) + text[cut:]
    if op == 13:
        lengths = _hint_lengths(slot, hints)
        if lengths:
            return "".join(_resize(list(text), rng.choice(lengths), lambda: rng.choice(chars), rng))
    if op == 0:
        return ""
    if op == 1:
        return rng.choice(chars)
    if op == 2 and len(words) > 1:
        i, j = rng.randrange(len(words)), rng.randrange(len(words))
        words[i], words[j] = words[j], words[i]
        return " ".join(words)
    if op == 3 and len(words) > 1:
        i = rng.randrange(len(words))
        return " ".join(words[:i] + [words[i]] + words[i:] if rng.random() < 0.5 else words[:i] + words[i + 1:])
    if op == 4:
        return text[::-1]
    if op == 5 and text:
        cut = rng.randrange(len(text) + 1)
        return text[:cut] if rng.random() < 0.5 else text[cut:]
    edits = list(text)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(edits) + 1)
        what = rng.randrange(4)
        if what == 0 or not edits:
            edits.insert(pos, rng.choice(chars))  # a character the input may not have contained
        elif what == 1:
            edits[min(pos, len(edits) - 1)] = rng.choice(chars)
        elif what == 2:
            del edits[min(pos, len(edits) - 1)]
        else:
            edits.insert(pos, edits[min(pos, len(edits) - 1)])  # a duplicate next to itself
    return "".join(edits)


def _mutate_seq(seq, slot, rng, hints=None):
    items = list(copy.deepcopy(seq))
    item_node = slot.get("item", {})
    values = [v for kind, sub in sorted(item_node.items()) for v in hinted(kind, sub, hints)]
    op = rng.randrange(15)
    if op == 14 and items:
        items = mirrored(items)
        return items if isinstance(seq, list) else tuple(items)
    if op == 11 and values:  # the solution's constants as items: 3.7 in a list of grades, 2 among primes
        for _ in range(rng.randint(1, 3)):
            if items and rng.random() < 0.5:
                items[rng.randrange(len(items))] = rng.choice(values)
            else:
                items.insert(rng.randrange(len(items) + 1), rng.choice(values))
        return items if isinstance(seq, list) else tuple(items)
    if op == 12 and values:
        low, high = length_bounds(slot)
        items = [rng.choice(values) for _ in range(rng.randint(low, max(low, min(high, low + 8))))]
        return items if isinstance(seq, list) else tuple(items)
    if op == 13:
        lengths = _hint_lengths(slot, hints)
        if lengths:
            grow = (lambda: copy.deepcopy(rng.choice(items))) if items else (lambda: fresh(item_node, rng, hints=hints))
            items = _resize(items, rng.choice(lengths), grow, rng)
            return items if isinstance(seq, list) else tuple(items)
    if op == 0:
        items = []
    elif op == 1 and items:
        items = [rng.choice(items)]
    elif op == 2 and items:
        items.insert(rng.randrange(len(items) + 1), copy.deepcopy(rng.choice(items)))  # a duplicate
    elif op == 3 and items:
        del items[rng.randrange(len(items))]
    elif op == 4:
        items.insert(rng.randrange(len(items) + 1), fresh(item_node, rng, hints=hints))
    elif op == 5 and len(items) > 1:
        i, j = rng.randrange(len(items)), rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]
    elif op == 6:
        items.reverse()
    elif op == 7 and items:
        for _ in range(rng.randint(2, 4)):
            k = rng.randrange(len(items))
            items[k] = mutate_value(items[k], item_node, rng, hints)
    elif op == 8 and items:
        rng.shuffle(items)
    elif items:
        k = rng.randrange(len(items))
        items[k] = mutate_value(items[k], item_node, rng, hints)
    else:
        items.append(fresh(item_node, rng, hints=hints))
    return items if isinstance(seq, list) else tuple(items)


def _mutate_dict(value, slot, rng, hints=None):
    new = dict(value)
    op = rng.randrange(4)
    if op == 0 and new:
        del new[rng.choice(sorted(new, key=repr))]
    elif op == 1 or not new:
        new[fresh(slot.get("key", {}), rng, hints=hints)] = fresh(slot.get("value", {}), rng, hints=hints)
    elif op == 2:
        new = {}
    else:
        key = rng.choice(sorted(new, key=repr))
        new[key] = mutate_value(new[key], slot.get("value", {}), rng, hints)
    return new


def repair(value, node):
    """Bring a sequence or string back into its domain where that is cheap: order, duplicates, length."""
    kind = type_name(value)
    slot = node.get(kind)
    if slot is None or kind not in ("list", "tuple", "str"):
        return value
    _, high = length_bounds(slot)
    if kind == "str":
        return value[:high]
    items = list(value)[:high]
    if traits_hold(slot):
        if slot.get("unique"):
            seen = {}
            for item in items:
                seen.setdefault(repr(item), item)
            items = list(seen.values())
        try:
            if slot.get("asc"):
                items.sort()
            elif slot.get("desc"):
                items.sort(reverse=True)
        except TypeError:
            pass
    return items if kind == "list" else tuple(items)


def mutate_args(args, contract, rng, hints=None):
    """A new argument tuple: one, several or every argument edited, or two arguments swapped, or all permuted."""
    args = list(copy.deepcopy(args))
    nodes = contract["args"]
    if not args:
        return tuple(args)
    op = rng.random()
    if op < 0.1 and len(args) > 1:
        if len(args) > 2 and rng.random() < 0.5:
            rng.shuffle(args)
        else:
            i, j = rng.sample(range(len(args)), 2)
            args[i], args[j] = args[j], args[i]
        return tuple(args)
    if op < 0.45:
        chosen = [rng.randrange(len(args))]
    elif op < 0.8:
        chosen = rng.sample(range(len(args)), rng.randint(1, len(args)))
    else:
        chosen = list(range(len(args)))
    for index in chosen:
        for _ in range(rng.choice([1, 1, 2])):
            args[index] = mutate_value(args[index], nodes[index], rng, hints)
    return tuple(args)
