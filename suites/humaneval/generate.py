"""Hidden stress tests for one HumanEval case, by type-aware input mutation (as EvalPlus does).

Run on the grading host as ``python3 -I -S generate.py --seed N --out DIR`` (stdlib only). It
records the inputs the problem's own check() feeds the canonical solution, mutates them (ints +-1
or scaled within their sign, floats scaled, strings and lists edited with their own elements,
sortedness and uniqueness kept), computes each expected output with the canonical solution, and
drops inputs on which it raises, runs out of CPU time, is not deterministic, or gives a value that does not
survive repr/literal_eval. Writes DIR/files/{runner.py,inputs.json} and DIR/hidden.json.
"""

import argparse
import ast
import copy
import json
import os
import random
import shutil
import signal
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = 40
MAX_ATTEMPTS = 600
BUDGET_S = 8.0
PER_INPUT_S = 0.5
MAX_TIMEOUTS = 6
# kept inputs cost the canonical solution at most this much CPU, 20x under the sandbox's per-input limit,
# so a busy grading host does not turn a correct answer into a timeout (a flaky hidden test)
FAST_S = 0.1
RUNNER_PER_INPUT_S = 2.0
MAX_REPR = 2000


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def call(function, args, limit):
    # CPU time, not wall time: the same inputs survive on a busy grading host as on an idle one
    signal.setitimer(signal.ITIMER_VIRTUAL, limit)
    try:
        return function(*copy.deepcopy(args))
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)


def roundtrips(value):
    try:
        text = repr(value)
        if len(text) > MAX_REPR:
            return False
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return back == value and repr(back) == text


def base_inputs(problem, namespace, function):
    """Argument tuples check() passes to the candidate, in order, without repeats."""
    seen, found = set(), []

    def recorder(*args):
        key = repr(args)
        if key not in seen and roundtrips(args):
            seen.add(key)
            found.append(copy.deepcopy(args))
        return function(*args)

    test_ns = dict(namespace)
    exec(problem["test"], test_ns)
    random.seed(0)  # a few checks draw random inputs from the global generator
    signal.setitimer(signal.ITIMER_VIRTUAL, 30)
    try:
        test_ns["check"](recorder)
    except (Exception, Timeout):
        pass
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    return found


def _keep_sign(new, old):
    if old > 0:
        return new if new > 0 else old
    if old < 0:
        return new if new < 0 else old
    return abs(new)


def mutate(value, rng):
    """One type-preserving edit of ``value``; containers keep their kind, order and uniqueness traits."""
    if isinstance(value, bool):
        return not value if rng.random() < 0.3 else value
    if isinstance(value, int):
        new = rng.choice([value + 1, value - 1, value * 2, value // 2, value + rng.randint(-10, 10)])
        return _keep_sign(new, value)
    if isinstance(value, float):
        new = rng.choice([value * 0.5, value * 1.5, value * 2.0, value + rng.uniform(-1, 1), round(value, 1)])
        return _keep_sign(new, value)
    if isinstance(value, str):
        return mutate_str(value, rng)
    if isinstance(value, (list, tuple)):
        return mutate_seq(value, rng)
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value, key=repr))
        new = dict(value)
        new[key] = mutate(value[key], rng)
        return new
    return value


def mutate_str(text, rng):
    if not text:
        return text
    words = text.split(" ")
    if len(words) > 1 and rng.random() < 0.5:
        return " ".join(mutate_list_items(words, rng, lambda w: w))
    alphabet = sorted(set(text))
    chars = list(text)
    op = rng.randrange(4)
    pos = rng.randrange(len(chars))
    if op == 0:
        chars[pos] = rng.choice(alphabet)
    elif op == 1:
        chars.insert(pos, rng.choice(alphabet))
    elif op == 2 and len(chars) > 1:
        del chars[pos]
    else:
        other = rng.randrange(len(chars))
        chars[pos], chars[other] = chars[other], chars[pos]
    return "".join(chars)


def mutate_list_items(items, rng, edit):
    items = list(items)
    op = rng.randrange(4)
    pos = rng.randrange(len(items))
    if op == 0:
        items[pos] = edit(items[pos])
    elif op == 1:
        items.insert(rng.randrange(len(items) + 1), edit(copy.deepcopy(rng.choice(items))))
    elif op == 2 and len(items) > 1:
        del items[pos]
    else:
        other = rng.randrange(len(items))
        items[pos], items[other] = items[other], items[pos]
    return items


def mutate_seq(seq, rng):
    if not seq:
        return seq
    items = mutate_list_items(seq, rng, lambda v: mutate(v, rng))
    try:
        if len(seq) > 1 and list(seq) == sorted(seq):
            items.sort()
        elif len(seq) > 1 and list(seq) == sorted(seq, reverse=True):
            items.sort(reverse=True)
    except TypeError:
        pass
    if len(set(map(repr, seq))) == len(seq):
        unique = {}
        for item in items:
            unique.setdefault(repr(item), item)
        items = list(unique.values())
    return type(seq)(items)


def mutate_args(args, rng):
    args = list(copy.deepcopy(args))
    if args:
        index = rng.randrange(len(args))
        for _ in range(rng.randint(1, 3)):
            args[index] = mutate(args[index], rng)
    return tuple(args)


def stress_inputs(function, base, rng):
    """New inputs (not among the base ones) with the canonical solution's output for each."""
    seen = {repr(args) for args in base}
    pool, chosen, timeouts = list(base), [], 0
    started = time.process_time()
    for _ in range(MAX_ATTEMPTS):
        if len(chosen) >= TARGET or time.process_time() - started > BUDGET_S or not pool or timeouts >= MAX_TIMEOUTS:
            break
        args = mutate_args(rng.choice(pool), rng)
        key = repr(args)
        if key in seen or not roundtrips(args):
            continue
        seen.add(key)
        try:
            cost = time.process_time()
            first = call(function, args, PER_INPUT_S)
            cost = time.process_time() - cost
            again = call(function, args, PER_INPUT_S)
        except Timeout:
            timeouts += 1  # inputs that grew too large for the canonical solution: stop trying soon
            continue
        except (Exception, RecursionError):
            continue
        if cost > FAST_S or not roundtrips(first) or repr(first) != repr(again):
            continue
        pool.append(args)
        chosen.append((key, repr(first)))
    return chosen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    signal.signal(signal.SIGVTALRM, _alarm)
    with open(os.path.join(HERE, "problem.json"), encoding="utf-8") as handle:
        problem = json.load(handle)
    namespace = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    function = namespace[problem["entry_point"]]
    base = base_inputs(problem, namespace, function)
    chosen = stress_inputs(function, base, random.Random(options.seed))
    files = os.path.join(options.out, "files")
    os.makedirs(files, exist_ok=True)
    shutil.copy(os.path.join(HERE, "runner.py"), os.path.join(files, "runner.py"))
    with open(os.path.join(files, "inputs.json"), "w", encoding="utf-8") as handle:
        json.dump({"entry_point": problem["entry_point"], "per_input_s": RUNNER_PER_INPUT_S,
                   "inputs": [key for key, _ in chosen]}, handle)
    tests = [{"name": "stress", "command": "python3 -S /grader/hidden/runner.py",
              "expected": [value for _, value in chosen], "inputs": [key for key, _ in chosen],
              "timeout_s": 30 + RUNNER_PER_INPUT_S * len(chosen)}]
    with open(os.path.join(options.out, "hidden.json"), "w", encoding="utf-8") as handle:
        json.dump({"tests": tests if chosen else []}, handle)


main()
