"""Input contracts a HumanEval problem states in words: read from its docstring, not from its tests.

"1 <= n <= 100", "Given a positive integer n", "a non-empty list of integers", "the length of the
array will be in the range of [1, 1000]", "0 <= k <= len(arr)", "Assume n > 1", "(a) is less then
100", "consisting only of 1s and 0s", "the input string contains only letters and spaces", "a list
of non-negative integers", "of length at least two", "two arrays ... of equal length", "Given a
sorted list": each becomes a rule on one argument's value, length, items or items' lengths, or on
two arguments' lengths. The parsing is general (phrases and a subject bound to an argument by name,
by kind, or as the function's only argument of that kind), never per problem, so a phrase it
misreads ("A string is happy if its length is at least 3" is a definition, not a promise) is caught
the same general way: a rule that an input of the problem's own check() breaks is dropped, because
the problem's tests are inside its contract by definition. What is left only ever narrows the
derived contract (contract.py ``accepts``), and an explicit numeric range also widens the derived
range of that value up to it, so boundary values the problem promises are tried.
"""

from __future__ import annotations

import ast
import inspect
import re

WORD_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}
NUM = r"-?\d+(?:\.\d+)?(?:\s*(?:\^|\*\*)\s*\d+)?"
COUNT = NUM + "|" + "|".join(WORD_NUMBERS)
TERM = rf"len\(\s*[A-Za-z_]\w*\s*\)|[A-Za-z_]\w*(?:\[[^\]]*\])*(?:\.[A-Za-z_]\w*)?|{NUM}"
CHAIN = re.compile(rf"(?<![\w\[.])({TERM})\s*(<=|<|>=|>|≤|≥)\s*({TERM})(?:\s*(<=|<|>=|>|≤|≥)\s*({TERM}))?")
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "≤": ">=", "≥": "<="}
NORMAL = {"≤": "<=", "≥": ">="}
SIGNS = {"strictly positive": (">", 0), "positive": (">", 0), "non-negative": (">=", 0), "nonnegative": (">=", 0),
         "non negative": (">=", 0), "non-positive": ("<=", 0), "negative": ("<", 0), "natural": (">", 0)}
SIGN = "|".join(sorted(SIGNS, key=len, reverse=True))
NOUN = (r"(?:(?:even|odd|whole|real|decimal|floating[- ]point|float|integer)\s+)*"
        r"(?:integers?|numbers?|floats?|ints?|values?|elements?|entries|nodes?)")
WORDS = {  # comparisons said in words, as the operator they mean
    "less than or equal to": "<=", "greater than or equal to": ">=", "not less than": ">=", "not greater than": "<=",
    "no less than": ">=", "no more than": "<=", "at least": ">=", "at most": "<=", "less than": "<",
    "less then": "<", "smaller than": "<", "lower than": "<", "greater than": ">", "more than": ">",
    "larger than": ">", "bigger than": ">"}
SAID = "|".join(sorted(WORDS, key=len, reverse=True))
SEQ_NOUNS = r"(?:list|array|sequence|tuple|vector)s?"
STR_NOUNS = r"(?:string|str|word|sentence|text|message)s?"
CLASSES = {"lowercase": "abcdefghijklmnopqrstuvwxyz", "uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
           "digit": "0123456789"}
CLASSES["letter"] = CLASSES["lowercase"] + CLASSES["uppercase"]


def docstring(prompt, entry):
    """The entry function's docstring, without its example lines (an example shows an output, not a promise)."""
    tree = ast.parse(prompt)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == entry]
    if not found:
        return "", []
    names = [a.arg for a in found[0].args.args]
    # the first string in the body: a docstring, or one after an import placed above it (max_fill)
    strings = [n.value.value for n in found[0].body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
               and isinstance(n.value.value, str)]
    text = inspect.cleandoc(strings[0]) if strings else ""
    example = re.compile(rf">>>|\b{re.escape(entry)}\s*\(|==>|=>|->|➞")
    return "\n".join(line for line in text.splitlines() if not example.search(line)), names


def clauses(text):
    """Sentences and list items ("* 1 <= n <= 10", "2. ..."), each one clause."""
    out, current = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if re.match(r"^(?:[*\-•]|\d+[.)])\s", stripped) or not stripped:
            out.append(" ".join(current))
            current = [re.sub(r"^(?:[*\-•]|\d+[.)])\s+", "", stripped)]
        else:
            current.append(stripped)
    out.append(" ".join(current))
    return [c.strip() for chunk in out for c in re.split(r"(?<=[A-Za-z)\]'\"])[.;:!?](?:\s|$)", chunk) if c.strip()]


def kinds(inputs, width):
    """Per argument: 'num', 'str', 'seq' (a list or tuple; 'seq:str' / 'seq:num' by its items) or 'other'."""
    out = []
    for index in range(width):
        values = [args[index] for args in inputs if len(args) > index]
        out.append(_kind(values))
    return out


def _kind(values):
    if values and all(type(v) in (int, float) for v in values):
        return "num"
    if values and all(type(v) is str for v in values):
        return "str"
    if values and all(type(v) in (list, tuple) for v in values):
        items = [i for v in values for i in v]
        inner = _kind(items) if items else "other"
        return f"seq:{inner}" if inner in ("num", "str") else "seq"
    return "other"


def number(text):
    text = text.strip().lower()
    if text in WORD_NUMBERS:
        return WORD_NUMBERS[text]
    power = re.fullmatch(r"(-?)(\d+)\s*(?:\^|\*\*)\s*(\d+)", text)
    if power:  # "-10^4" is -(10^4), as constraints write it
        return (-1 if power.group(1) else 1) * int(power.group(2)) ** int(power.group(3))
    return float(text) if "." in text else int(text)


class Reader:
    """Rules from one docstring, bound to the function's arguments."""

    def __init__(self, names, arg_kinds, spaced=False):
        self.names, self.kinds, self.rules = names, arg_kinds, []
        self.spaced = spaced  # the docstring says its words are separated by spaces: "only letters" keeps them

    def index(self, name):
        return self.names.index(name) if name in self.names else None

    def abbreviated(self, name):
        """The one numeric argument ``name`` abbreviates ("num" for ``number``), else None."""
        found = [i for i, n in enumerate(self.names) if len(name) >= 3 and n != name and n.startswith(name)
                 and self.kinds[i] == "num"]
        return found[0] if len(found) == 1 else None

    def only(self, test):
        """The one argument whose kind passes ``test``, else None."""
        found = [i for i, k in enumerate(self.kinds) if test(k)]
        return found[0] if len(found) == 1 else None

    def mentioned(self, clause, test):
        """The arguments named in ``clause`` whose kind passes ``test``."""
        return [i for i, name in enumerate(self.names) if test(self.kinds[i])
                and re.search(rf"(?<![\w.]){re.escape(name)}(?![\w(])", clause)]

    def bind(self, clause, test, after="", before=None):
        """The argument named right after the phrase, else the one named last before it (``before``: the
        clause up to the phrase), else those named in the clause, else the only one of that kind."""
        named = re.match(r"\s*\(?'?([A-Za-z_]\w*)", after)
        if named and self.index(named.group(1)) is not None and test(self.kinds[self.index(named.group(1))]):
            return [self.index(named.group(1))]
        if before is not None:
            last = {i: m.start() for i in self.mentioned(before, test)
                    for m in re.finditer(rf"(?<![\w.]){re.escape(self.names[i])}(?![\w(])", before)}
            if last:
                return [max(last, key=last.get)]
        found = self.mentioned(clause, test)
        if found:
            return found
        only = self.only(test)
        return [] if only is None else [only]

    def add(self, arg, on, op, value, said):
        rule = {"arg": arg, "on": on, "op": NORMAL.get(op, op), "value": value, "said": said.strip()[:120]}
        if rule not in self.rules:
            self.rules.append(rule)

    def term(self, text):
        """(arg, on) for a term: ``n``, ``len(arr)``, ``arr.length``, ``arr[i]``, ``node.value``; or a number."""
        if re.fullmatch(NUM, text):
            return ("number", number(text))
        length = re.fullmatch(r"len\(\s*(\w+)\s*\)|(\w+)\.(?:length|size)", text)
        if length:
            name = length.group(1) or length.group(2)
            arg = self.index(name) if self.index(name) is not None else self.only(lambda k: k != "num")
            return None if arg is None or self.kinds[arg] == "num" else (arg, "len")
        inner = re.fullmatch(r"(\w+)(?:\[[^\]]*\])+\.(?:length|size)", text)
        if inner:
            arg = self.index(inner.group(1))
            arg = self.only(lambda k: k.startswith("seq")) if arg is None else arg
            return None if arg is None or not self.kinds[arg].startswith("seq") else (arg, "item_len")
        item = re.fullmatch(r"(\w+)(?:\[[^\]]*\]|\.value)", text)
        if item:
            arg = self.index(item.group(1))
            arg = self.only(lambda k: k.startswith("seq")) if arg is None else arg
            return None if arg is None or not self.kinds[arg].startswith("seq") else (arg, "items")
        arg = self.index(text) if self.index(text) is not None else self.abbreviated(text)
        if arg is None or self.kinds[arg] not in ("num", "seq:num"):
            return None
        return (arg, "value" if self.kinds[arg] == "num" else "items")

    def inequalities(self, clause):
        for match in CHAIN.finditer(clause):
            parts = [g for g in match.groups() if g is not None]
            for left, op, right in zip(parts[0::2], parts[1::2], parts[2::2], strict=False):
                self._pair(self.term(left), op, self.term(right), match.group(0))

    def _pair(self, left, op, right, said):
        if left is None or right is None:
            return
        if left[0] == "number" and right[0] != "number":
            left, op, right = right, FLIP[op], left
        if left[0] == "number":
            return
        if right[0] == "number":
            self.add(left[0], left[1], op, right[1], said)
        elif left[1] == "value" and right[1] == "len" and op in ("<", "<=", "≤"):
            self.add(left[0], "value", NORMAL.get(op, op), {"len_of": right[0]}, said)

    def phrases(self, clause):
        low = clause.lower()
        numeric, seq_num = (lambda k: k == "num"), (lambda k: k == "seq:num")
        for match in re.finditer(rf"\b{SEQ_NOUNS}\s+of\s+(?:\w+\s+)??({SIGN})\s+{NOUN}", low):
            for arg in self.bind(clause, seq_num, clause[match.end():]):
                self.add(arg, "items", *SIGNS[match.group(1)], match.group(0))
        for match in re.finditer(rf"\b({SIGN})\s+{NOUN}", low):
            if re.search(rf"{SEQ_NOUNS}\s+of\s+(?:\w+\s+)??$", low[:match.start()]):
                continue  # the items of a list, above
            after = clause[match.end():]
            named = [n for n in re.findall(r"[A-Za-z_]\w*", re.split(r"[,.;]\s*(?!and\b)", after)[0])[:4]
                     if self.index(n) is not None]
            args = [self.index(n) for n in named if numeric(self.kinds[self.index(n)])]
            if not args and not re.match(r"\s*(?:in|of|from|that|which)\b", after.lower()):
                args = self.bind(clause, numeric)
            for arg in args:
                self.add(arg, "value", *SIGNS[match.group(1)], match.group(0))
        names = r"((?:\w+\s*,\s*)*\w+(?:,?\s+and\s+\w+)?)"  # "n", "x and y", "a, b and c"
        for match in re.finditer(rf"\(?'?\b{names}'?\)?\s+(?:is|are|will be|must be|should be)\s+(?:always\s+)?"
                                 rf"(?:an?\s+|both\s+|all\s+)?({SIGN})\b", clause, re.I):
            for name in re.split(r"\s*,\s*|\s+and\s+", match.group(1)):
                arg = self.index(name.strip())
                if arg is not None and self.kinds[arg] in ("num", "seq:num"):
                    self.add(arg, "value" if self.kinds[arg] == "num" else "items",
                             *SIGNS[match.group(2).lower()], match.group(0))
        for match in re.finditer(rf"\b(\w+)\s+(?:will|does|do|shall|must|should)\s+(?:not|never)\s+exceed\s+({NUM})\b",
                                 clause):
            arg = self.index(match.group(1))
            if arg is not None and self.kinds[arg] == "num":
                self.add(arg, "value", "<=", number(match.group(2)), match.group(0))
        for match in re.finditer(rf"\(?'?\b(\w+)'?\)?\s+(?:is|are|will be|must be|should be)\s+(?:always\s+)?"
                                 rf"({SAID})\s+({NUM})\b", clause, re.I):
            arg = self.index(match.group(1))
            if arg is not None and self.kinds[arg] == "num":
                self.add(arg, "value", WORDS[match.group(2).lower()], number(match.group(3)), match.group(0))
        self._ranges(clause, low)
        self._lengths(clause, low)
        self._characters(clause, low)
        self._order(clause, low)

    def _ranges(self, clause, low):
        span = rf"\bin\s+the\s+range\s+(?:of\s+)?\[\s*({NUM})\s*,\s*({NUM})\s*\]"
        found = list(re.finditer(rf"\b(length|size|elements|values|numbers|items|entries)\b[^.]*?{span}", low))
        named = rf"\b(\w+)\s+(?:is|are|will be|must be|lies|lie)\s+(?:always\s+)?{span}"
        found = found or list(re.finditer(named, low))
        for match in found:
            subject = match.group(1)
            if subject in ("length", "size"):
                targets = [(a, "len") for a in self.bind(clause, lambda k: k.startswith(("seq", "str")))]
            elif subject in ("elements", "values", "numbers", "items", "entries"):
                targets = [(a, "items") for a in self.bind(clause, lambda k: k == "seq:num")]
            else:
                arg = self.index(clause[match.start(1):match.end(1)])
                targets = [] if arg is None or self.kinds[arg] != "num" else [(arg, "value")]
            for arg, on in targets:
                self.add(arg, on, ">=", number(match.group(2)), match.group(0))
                self.add(arg, on, "<=", number(match.group(3)), match.group(0))
        for match in re.finditer(rf"\b(?:(length|size)\s+of\s+)?(\w+)\s+(?:is|are|will be|must be)\s+(?:always\s+)?"
                                 rf"(?:in\s+)?between\s+({NUM})\s+and\s+({NUM})", clause, re.I):
            arg = self.index(match.group(2))
            if match.group(1) and arg is not None and self.kinds[arg] != "num":
                targets = [(arg, "len")]
            elif arg is not None and self.kinds[arg] in ("num", "seq:num"):
                targets = [(arg, "value" if self.kinds[arg] == "num" else "items")]
            elif re.fullmatch(r"(?:elements?|values?|numbers?|items?|entries|entry|integers?)", match.group(2).lower()):
                targets = [(a, "items") for a in self.bind(clause, lambda k: k == "seq:num",
                                                           before=clause[:match.start()])]
            else:
                targets = []
            for arg, on in targets:
                self.add(arg, on, ">=", number(match.group(3)), match.group(0))
                self.add(arg, on, "<=", number(match.group(4)), match.group(0))

    def _lengths(self, clause, low):
        sized = lambda k: k.startswith(("seq", "str"))  # noqa: E731
        for match in re.finditer(rf"\b{SEQ_NOUNS}\s+of\s+(?:non-?empty)\s+{STR_NOUNS}", low):
            for arg in self.bind(clause, lambda k: k == "seq:str", clause[match.end():]):
                self.add(arg, "item_len", ">=", 1, match.group(0))
        nouns = rf"({SEQ_NOUNS}|{STR_NOUNS}|dictionar(?:y|ies))"
        for match in re.finditer(rf"(?<!of )\b(?:non-?empty|not\s+empty)\s+{nouns}", low):
            test = (lambda k: k.startswith("seq")) if re.match(SEQ_NOUNS, match.group(1)) else \
                (lambda k: k == "str") if re.match(STR_NOUNS, match.group(1)) else sized
            for arg in self.bind(clause, test, clause[match.end():]):
                self.add(arg, "len", ">=", 1, match.group(0))
        for match in re.finditer(r"\b(\w+)\s+(?:is|are|will be|will always be|is always|should be|must be)\s+"
                                 r"(?:non-?empty|not\s+empty)", low):
            subject = match.group(1)
            arg = self.index(clause[match.start(1):match.end(1)])
            if arg is not None and sized(self.kinds[arg]):
                args = [arg]
            elif re.fullmatch(SEQ_NOUNS, subject):
                test = lambda k: k.startswith("seq")  # noqa: E731
                args = [i for i, k in enumerate(self.kinds) if test(k)] if subject.endswith("s") else \
                    self.bind(clause, test)
            elif re.fullmatch(STR_NOUNS, subject):
                args = self.bind(clause, lambda k: k == "str")
            else:
                args = []
            for arg in args:
                self.add(arg, "len", ">=", 1, match.group(0))
        pattern = (rf"\b(?:length|size)\s+(?:of\s+|is\s+)?({SAID}|>=|>)\s+({COUNT})\b|\b(at\s+least|more\s+than)\s+"
                   rf"({COUNT})\s+(?:elements?|items?|numbers?|values?|operands?|operators?|entries|entry|characters?|"
                   rf"letters?|words?|integers?|strings?)\b")
        for match in re.finditer(pattern, low):
            said_op, count = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
            op = WORDS.get(re.sub(r"\s+", " ", said_op), said_op)
            if op in ("<", "<="):
                continue  # a length at most n is rarely a promise about the input (and needs no guard)
            noun = re.search(r"(\w+?)s?$", match.group(0)).group(1)  # "two operands": the argument `operand`
            named = self.index(noun)
            args = [named] if named is not None and sized(self.kinds[named]) else \
                self.bind(clause, sized, before=clause[:match.start()])
            for arg in args:
                self.add(arg, "len", op, number(count), match.group(0))
        if re.search(r"\b(?:of\s+)?(?:equal|the\s+same)\s+lengths?\b", low) and not low.startswith(("return", "if")):
            found = self.mentioned(clause, sized)
            if len(found) != 2 and re.search(r"\b(?:two|both)\b", low):  # "two arrays ... of equal length"
                found = [i for i, k in enumerate(self.kinds) if sized(k)]
            if len(found) == 2 and not re.search(r"\beach\b|\ball\s+(?:the\s+)?words\b", low):
                self.add(found[0], "len", "==", {"len_of": found[1]}, clause)

    def _characters(self, clause, low):
        chars = None
        if re.search(r"\b1s\s+and\s+0s\b|\b0s\s+and\s+1s\b", low):
            chars = "01"
        else:
            match = re.search(r"\b(?:only(?:\s+(?:contains?|consists?\s+of|has|have|includes?|uses?))?|"
                              r"solely|consist(?:s|ing)?\s+of|made\s+(?:up\s+)?of|representing\s+an?|"
                              r"(?:string|text|word)s?\s+of)\s+"
                              r"(?:of\s+)?(?:the\s+)?(?:an?\s+)?(space[- ]separated\s+)?"
                              r"(lower[- ]?case|upper[- ]?case)?\s*(?:english\s+|latin\s+)?"
                              r"(letters?|digits?|alphabets?)"
                              r"(\s+and\s+spaces?)?|\b(lower[- ]?case\s+|upper[- ]?case\s+)?(?:english\s+)?"
                              r"(letters?|digits?)\s+only\b", low)
            if match:
                case = (match.group(2) or match.group(5) or "").replace("-", "").replace(" ", "")
                noun = match.group(3) or match.group(6)
                name = "digit" if noun.startswith("digit") else case if case in ("lowercase", "uppercase") else "letter"
                spaced = match.group(1) or match.group(4) or re.search(r"\bspaces?\b|space[- ]separated", low) or \
                    (self.spaced and name == "letter")
                chars = CLASSES[name] + (" " if spaced else "")
        if chars is None:
            return
        targets = [(a, "value") for a in self.mentioned(clause, lambda k: k == "str")]
        if not targets and re.search(r"\beach\s+(?:string|word|element)\b", low):
            targets = [(a, "items") for a in self.bind(clause, lambda k: k == "seq:str")]
        if not targets:
            only = self.only(lambda k: k == "str")
            targets = [(only, "value")] if only is not None else []
        for arg, on in targets:
            self.add(arg, on, "chars", chars, clause)

    def _order(self, clause, low):
        for match in re.finditer(r"\b(\w+)\s+(?:is|will be)\s+(?:an?\s+|already\s+)?sorted\b", clause):
            arg = self.index(match.group(1))
            if arg is not None and self.kinds[arg].startswith("seq"):
                descending = re.search(r"descending|decreasing|non-increasing", low)
                self.add(arg, "value", "sorted", "desc" if descending else "asc", match.group(0))
        if low.startswith(("return", "if", "the function")) or not re.search(
                r"\b(?:given|assume|assumed|input|takes?)\b", low):
            return
        match = re.search(rf"\bsorted\s+{SEQ_NOUNS}|{SEQ_NOUNS}\s+(?:is|are)\s+(?:already\s+)?sorted", low)
        if match:
            descending = re.search(r"descending|decreasing|non-increasing", low)
            for arg in self.bind(clause, lambda k: k.startswith("seq"), clause[match.end():]):
                self.add(arg, "value", "sorted", "desc" if descending else "asc", match.group(0))


def read(prompt, entry, inputs):
    """The rules ``prompt``'s docstring states about ``entry``'s inputs that every recorded input keeps."""
    text, names = docstring(prompt, entry)
    width = max([len(names)] + [len(a) for a in inputs])
    spaced = bool(re.search(r"separated\s+by\s+(?:a\s+)?(?:single\s+)?spaces?|space[- ]separated", text, re.I))
    reader = Reader(names + [f"_{i}" for i in range(len(names), width)], kinds(inputs, width), spaced)
    for clause in clauses(text):
        reader.inequalities(clause)
        reader.phrases(clause)
    return [rule for rule in reader.rules if all(holds(rule, args) for args in inputs)]


def holds(rule, args):
    """Whether ``args`` keeps one rule (a rule on an argument the call does not pass holds)."""
    if rule["arg"] >= len(args):
        return True
    value = args[rule["arg"]]
    try:
        if rule["op"] == "chars":
            texts = value if rule["on"] == "items" else [value]
            return all(isinstance(t, str) and set(t) <= set(rule["value"]) for t in texts)
        if rule["op"] == "sorted":
            items = list(value)
            return items == sorted(items, reverse=rule["value"] == "desc")
        bound = rule["value"]
        if isinstance(bound, dict):
            bound = len(args[bound["len_of"]]) if bound["len_of"] < len(args) else None
            if bound is None:
                return True
        if rule["on"] == "value":
            measures = [value]
        elif rule["on"] == "len":
            measures = [len(value)]
        elif rule["on"] == "items":
            measures = list(value)
        else:
            measures = [len(item) for item in value]
        return all(type(m) in (int, float) and _compare(m, rule["op"], bound) for m in measures)
    except (TypeError, ValueError, IndexError):
        return False


def _compare(a, op, b):
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b}[op]


def apply(contract, rules):
    """``contract`` (derive()'s) with the rules as its "stated" part, and each int or float range they bound
    narrowed to them; a range the problem states at both ends ("1 <= n <= 1000", "in the range [a, b]")
    replaces the derived one, so the generator reaches the promised ends and nothing past them."""
    contract = dict(contract, stated=rules)
    spans = {}
    for rule in rules:
        if rule["on"] in ("value", "items") and rule["op"] in ("<", "<=", ">", ">=") and \
                not isinstance(rule["value"], dict) and rule["arg"] < len(contract["args"]):
            spans.setdefault((rule["arg"], rule["on"]), []).append(rule)
    for (arg, on), found in spans.items():
        node = contract["args"][arg]
        if on == "items":
            node = next((slot["item"] for kind, slot in node.items() if kind in ("list", "tuple") and "item" in slot),
                        {})
        explicit = {r["op"][0] for r in found if any(c in r["said"] for c in "<>≤≥[")}
        for kind in ("int", "float"):
            if kind in node:
                _bound(node[kind], found, kind, explicit == {"<", ">"})
    return contract


def _bound(slot, rules, kind, replace):
    step = 1 if kind == "int" else 0
    lows = [r["value"] + (step if r["op"] == ">" else 0) for r in rules if r["op"] in (">", ">=")]
    highs = [r["value"] - (step if r["op"] == "<" else 0) for r in rules if r["op"] in ("<", "<=")]
    lo, hi = max(lows, default=None), min(highs, default=None)
    if kind == "int":
        lo = None if lo is None else int(-(-lo // 1))
        hi = None if hi is None else int(hi // 1)
    if replace and lo is not None and hi is not None and lo <= hi:
        slot["lo"], slot["hi"] = lo, hi
        return
    if lo is not None:
        slot["lo"] = max(slot["lo"], lo)
    if hi is not None:
        slot["hi"] = min(slot["hi"], hi)


def examples(prompt, entry, inputs):
    """The argument tuples the docstring's own examples call ``entry`` with (``>>> f(0)``, ``f(3) == 2``,
    ``fib4(0) -> 0``): promised inputs as much as check()'s. Kept only when they literal-evaluate to the
    arity and the per-argument types check()'s inputs have, so prose that merely looks like a call is left."""
    tree = ast.parse(prompt)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == entry]
    strings = [n.value.value for n in (found[0].body if found else []) if isinstance(n, ast.Expr)
               and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)]
    text = strings[0] if strings else ""
    types = [{type(a[i]).__name__ for a in inputs if len(a) > i} for i in range(max(map(len, inputs), default=0))]
    out, seen = [], {repr(a) for a in inputs}
    for match in re.finditer(rf"(?<![\w.]){re.escape(entry)}\s*\(", text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        try:
            args = ast.literal_eval("(" + text[match.end():end - 1] + ",)") if text[match.end():end - 1].strip() else ()
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if len(args) != len(types) or any(type(v).__name__ not in t for v, t in zip(args, types, strict=True)):
            continue
        if repr(args) not in seen:
            seen.add(repr(args))
            out.append(args)
    return out
