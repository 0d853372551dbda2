"""Contract-aware input mutation for HumanEval hidden tests (stdlib only, copied into each case).

Every edit is drawn from the argument's derived domain (contract.py), so it reaches what plain
type-preserving mutation never does: boundary values (0, ±1, the smallest and largest value the
tests used, empty, a single element, duplicates), sign changes and characters the input did not
contain where the domain allows them, several arguments changed at once, and arguments swapped.
Lists and strings are repaired toward their domain (sorted, duplicate-free, within length) rather
than thrown away, so most candidates survive the contract.
"""

import copy

from contract import allowed_chars, length_bounds, traits_hold, type_name


def _int_candidates(value, slot):
    lo, hi = slot["lo"], slot["hi"]
    picks = [0, 1, -1, 2, lo, hi, lo + 1, hi - 1, value + 1, value - 1, -value, value * 2, value // 2,
             (lo + hi) // 2, *slot.get("seen", [])]
    return [p for p in picks if lo <= p <= hi]


def fresh(node, rng, depth=0):
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
            return rng.choice(_int_candidates(slot["lo"], slot) or [slot["lo"]])
        return rng.randint(slot["lo"], slot["hi"])
    if kind == "float":
        if rng.random() < 0.3:
            return rng.choice([slot["lo"], slot["hi"]] + [v for v in (0.0, 1.0, -1.0) if slot["lo"] <= v <= slot["hi"]])
        return round(rng.uniform(slot["lo"], slot["hi"]), rng.choice([0, 1, 2]))
    if kind == "str":
        low, high = length_bounds(slot)
        chars = sorted(allowed_chars(slot))
        size = rng.randint(low, max(low, min(high, low + 8)))
        return "".join(rng.choice(chars) for _ in range(size)) if chars else ""
    if kind in ("list", "tuple"):
        low, high = length_bounds(slot)
        size = rng.randint(low, max(low, min(high, low + 5)))
        items = [fresh(slot.get("item", {}), rng, depth + 1) for _ in range(size)] if depth < 3 else []
        return repair(items if kind == "list" else tuple(items), node)
    if kind == "dict":
        return {}
    return None


def mutate_value(value, node, rng):
    """One edit of ``value`` within its domain node (or a fresh value when its type is not in the node)."""
    kind = type_name(value)
    if kind not in node:
        return fresh(node, rng)
    slot = node[kind]
    if kind == "bool":
        return not value
    if kind == "int":
        picks = _int_candidates(value, slot)
        if rng.random() < 0.3 or not picks:
            return rng.randint(slot["lo"], slot["hi"])
        return rng.choice(picks)
    if kind == "float":
        picks = [value + 0.5, value - 0.5, -value, value * 1.5, value / 2, float(round(value)), slot["lo"],
                 slot["hi"], value + 1e-3, round(rng.uniform(slot["lo"], slot["hi"]), 2), 0.0]
        return rng.choice([p for p in picks if slot["lo"] <= p <= slot["hi"]] or [value])
    if kind == "str":
        return repair(_mutate_str(value, slot, rng), node)
    if kind in ("list", "tuple"):
        return repair(_mutate_seq(value, slot, rng), node)
    if kind == "dict":
        return _mutate_dict(value, slot, rng)
    return value


def _mutate_str(text, slot, rng):
    chars = sorted(allowed_chars(slot)) or [" "]
    words = text.split(" ")
    op = rng.randrange(10)
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


def _mutate_seq(seq, slot, rng):
    items = list(copy.deepcopy(seq))
    item_node = slot.get("item", {})
    op = rng.randrange(11)
    if op == 0:
        items = []
    elif op == 1 and items:
        items = [rng.choice(items)]
    elif op == 2 and items:
        items.insert(rng.randrange(len(items) + 1), copy.deepcopy(rng.choice(items)))  # a duplicate
    elif op == 3 and items:
        del items[rng.randrange(len(items))]
    elif op == 4:
        items.insert(rng.randrange(len(items) + 1), fresh(item_node, rng))
    elif op == 5 and len(items) > 1:
        i, j = rng.randrange(len(items)), rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]
    elif op == 6:
        items.reverse()
    elif op == 7 and items:
        for _ in range(rng.randint(2, 4)):
            k = rng.randrange(len(items))
            items[k] = mutate_value(items[k], item_node, rng)
    elif op == 8 and items:
        rng.shuffle(items)
    elif items:
        k = rng.randrange(len(items))
        items[k] = mutate_value(items[k], item_node, rng)
    else:
        items.append(fresh(item_node, rng))
    return items if isinstance(seq, list) else tuple(items)


def _mutate_dict(value, slot, rng):
    new = dict(value)
    op = rng.randrange(4)
    if op == 0 and new:
        del new[rng.choice(sorted(new, key=repr))]
    elif op == 1 or not new:
        new[fresh(slot.get("key", {}), rng)] = fresh(slot.get("value", {}), rng)
    elif op == 2:
        new = {}
    else:
        key = rng.choice(sorted(new, key=repr))
        new[key] = mutate_value(new[key], slot.get("value", {}), rng)
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


def mutate_args(args, contract, rng):
    """A new argument tuple: one, several or every argument edited, or two arguments swapped."""
    args = list(copy.deepcopy(args))
    nodes = contract["args"]
    if not args:
        return tuple(args)
    op = rng.random()
    if op < 0.1 and len(args) > 1:
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
            args[index] = mutate_value(args[index], nodes[index], rng)
    return tuple(args)
