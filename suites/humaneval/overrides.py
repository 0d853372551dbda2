"""Input contracts the derived one cannot express, per HumanEval problem: written as hidden/accepts.py.

Each entry is the source of ``accepts(*args) -> bool`` (stdlib only), taken from what the problem's
docstring promises its inputs ("separate groups are balanced", "assume n > 1 and is not a prime",
"1 <= num <= 1000"): an input outside that promise has no right answer, so the canonical solution's
output for it would be a false alarm for a different correct solution. The derived contract
(types, ranges, shapes) still applies unless the source sets ``DERIVED = False``; ``RELATIONS = False``
keeps its per-argument part and drops the relations between arguments it read off the tests (an
order the tests happened to keep, not one the problem promises).
"""

_BALANCED = '''
def balanced(text, open_="(", close=")"):
    depth = 0
    for char in text:
        depth += 1 if char == open_ else -1 if char == close else 0
        if depth < 0:
            return False
    return depth == 0
'''

_PRIME = '''
def is_prime(n):
    return n > 1 and all(n % k for k in range(2, int(n ** 0.5) + 1))
'''

OVERRIDES: dict[str, str] = {
    # groups are balanced and not nested within each other; spaces are ignored
    "HumanEval/1": _BALANCED + '''
def accepts(text):
    return set(text) <= set("() ") and balanced(text)
''',
    "HumanEval/2": '''
def accepts(number):
    return number > 0
''',
    # groups of balanced parentheses separated by single spaces
    "HumanEval/6": _BALANCED + '''
def accepts(text):
    return set(text) <= set("() ") and all(group and balanced(group) for group in text.split(" "))
''',
    "HumanEval/11": '''
def accepts(a, b):
    return set(a) | set(b) <= {"0", "1"} and len(a) == len(b)
''',
    "HumanEval/17": '''
def accepts(music):
    return music == "" or all(note in ("o", "o|", ".|") for note in music.split(" "))
''',
    "HumanEval/19": '''
WORDS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}


def accepts(numbers):
    return numbers == "" or all(word in WORDS for word in numbers.split(" "))
''',
    # "the two closest": with two pairs equally close there is no single answer
    "HumanEval/20": '''
def accepts(numbers):
    ordered = sorted(numbers)
    gaps = sorted(b - a for a, b in zip(ordered, ordered[1:]))
    return len(numbers) >= 2 and (len(gaps) == 1 or gaps[0] != gaps[1])
''',
    "HumanEval/21": '''
def accepts(numbers):
    return len(numbers) >= 2 and min(numbers) != max(numbers)
''',
    "HumanEval/59": _PRIME + '''
def accepts(n):
    return n > 1 and not is_prime(n)
''',
    "HumanEval/67": '''
import re


def accepts(text, total):
    found = re.fullmatch(r"(\\d+) apples and (\\d+) oranges", text)
    return bool(found) and int(found.group(1)) + int(found.group(2)) <= total
''',
    "HumanEval/78": '''
def accepts(num):
    return set(num) <= set("0123456789ABCDEF")
''',
    "HumanEval/84": '''
def accepts(n):
    return 0 <= n <= 10000
''',
    "HumanEval/93": '''
def accepts(message):
    return all(c == " " or ("a" <= c.lower() <= "z") for c in message)
''',
    "HumanEval/99": '''
import re


def accepts(value):
    return bool(re.fullmatch(r"-?\\d+(\\.\\d+)?", value))
''',
    "HumanEval/107": '''
def accepts(n):
    return 1 <= n <= 1000
''',
    "HumanEval/109": '''
def accepts(arr):
    return len(set(arr)) == len(arr)
''',
    # space-separated lowercase letters, one letter per word
    "HumanEval/111": '''
def accepts(test):
    return test == "" or all(len(w) == 1 and "a" <= w <= "z" for w in test.split(" "))
''',
    "HumanEval/115": '''
def accepts(grid, capacity):
    return 1 <= capacity <= 10 and all(v in (0, 1) for row in grid for v in row)
''',
    "HumanEval/119": _BALANCED + '''
def accepts(lst):
    return len(lst) == 2 and all(set(s) <= set("()") for s in lst)
''',
    "HumanEval/120": '''
def accepts(arr, k):
    return 1 <= len(arr) <= 1000 and all(-1000 <= v <= 1000 for v in arr) and 0 <= k <= len(arr)
''',
    # "at most two digits": the canonical counts the minus sign of -10..-99 as a digit; leave them out
    "HumanEval/122": '''
def accepts(arr, k):
    return 1 <= len(arr) <= 100 and 1 <= k <= len(arr) and not any(-99 <= v <= -10 for v in arr[:k])
''',
    "HumanEval/127": '''
def accepts(interval1, interval2):
    return interval1[0] <= interval1[1] and interval2[0] <= interval2[1]
''',
    # an N x N grid (N >= 2) holding every value of 1..N*N exactly once, and k >= 1
    "HumanEval/129": '''
def accepts(grid, k):
    n = len(grid)
    return (n >= 2 and all(len(row) == n for row in grid) and k >= 1
            and sorted(v for row in grid for v in row) == list(range(1, n * n + 1)))
''',
    "HumanEval/132": '''
def accepts(string):
    return set(string) <= set("[]")
''',
    "HumanEval/135": '''
def accepts(arr):
    return len(set(arr)) == len(arr)
''',
    "HumanEval/137": '''
import re


def accepts(a, b):
    return all(not isinstance(v, str) or re.fullmatch(r"-?\\d+([.,]\\d+)?", v) for v in (a, b))
''',
    "HumanEval/143": '''
def accepts(sentence):
    words = sentence.split(" ")
    return 1 <= len(sentence) <= 100 and all(w.isalpha() and w.isascii() for w in words)
''',
    "HumanEval/144": '''
import re


def accepts(x, n):
    return all(re.fullmatch(r"[1-9]\\d*/[1-9]\\d*", v) for v in (x, n))
''',
    "HumanEval/156": '''
def accepts(number):
    return 1 <= number <= 1000
''',
    # the three sides in any order: the tests list the hypotenuse first or last, never second, so the derived
    # contract read "b <= c" off them; the problem promises no order (and the canonical assumes none)
    "HumanEval/157": '''
RELATIONS = False


def accepts(a, b, c):
    return True
''',
    "HumanEval/159": '''
def accepts(number, need, remaining):
    return all(0 <= v <= 1000 for v in (number, need, remaining))
''',
    # one more operand than operators, known operators only, and at most one power (3 ** 4 ** 5 never ends)
    "HumanEval/160": '''
def accepts(operator, operand):
    return (len(operand) == len(operator) + 1 and len(operator) >= 1
            and set(operator) <= {"+", "-", "*", "//", "**"} and operator.count("**") <= 1
            and all(v >= 0 for v in operand))
''',
}
