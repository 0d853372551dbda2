import operator as op


def do_algebra(operator, operand):
    # precedence climbing: ** (right-assoc) > * // > + -
    tokens = [operand[0]]
    for sign, value in zip(operator, operand[1:]):
        tokens += [sign, value]
    funcs = {"+": op.add, "-": op.sub, "*": op.mul, "//": op.floordiv, "**": op.pow}

    def reduce(items, signs, right=False):
        out = list(items)
        indices = range(len(out) - 2, 0, -2) if right else range(1, len(out), 2)
        if right:
            for i in indices:
                if out[i] in signs:
                    out[i - 1:i + 2] = [funcs[out[i]](out[i - 1], out[i + 1])]
            return out
        i = 1
        while i < len(out):
            if out[i] in signs:
                out[i - 1:i + 2] = [funcs[out[i]](out[i - 1], out[i + 1])]
            else:
                i += 2
        return out

    tokens = reduce(tokens, {"**"}, right=True)
    tokens = reduce(tokens, {"*", "//"})
    return reduce(tokens, {"+", "-"})[0]
