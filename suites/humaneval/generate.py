"""Hidden stress tests for one HumanEval case: contract-aware input mutation, judged by the canonical solution.

Run on the grading host as ``python3 -I -S generate.py --seed N --out DIR`` (stdlib only). It
records the inputs the problem's own check() feeds the canonical solution, then tries new inputs —
a boundary sweep (edge values), a constant sweep (the canonical solution's own constants and their
neighbours, hints.py, as values, items, lengths and numbers inside strings), then mutations
(mutate.py) — and keeps those that are in the input contract (contract.json, derived by the
importer, and hidden/accepts.py when the case has one), survive repr/literal_eval, and on which the
canonical solution returns the same value twice within a counted budget of executed lines (per
input, scaled to what the canonical spends on the recorded inputs, and for the whole generation).
Nothing depends on time or load: the same (case, seed) gives byte-identical output on any host.
Writes DIR/files/{runner.py,inputs.json} and DIR/hidden.json.
"""

import argparse
import ast
import contextlib
import copy
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # -I leaves the script's folder off sys.path

from contract import accepts, derive, recorded_inputs  # noqa: E402
from hints import literals  # noqa: E402
from mutate import mutate_args  # noqa: E402
from sweeps import constant_sweep, sweep  # noqa: E402

TARGET = 130
MIN_NEW = 40  # with fewer new inputs than this (a small domain), the recorded inputs join them
MAX_ATTEMPTS = 8000
SWEEP_SHARE = 20  # at most this many kept inputs come from the boundary sweep ...
CONSTANT_SHARE = 60  # ... and this many from the constant sweep; the rest are seeded mutations
LINE_BUDGET = 100_000  # executed lines the canonical may spend on one input (counted, so load cannot change it) ...
MAX_LINE_BUDGET = 500_000  # ... or COST_FACTOR times its costliest recorded input, up to this
COST_FACTOR = 4
TOTAL_BUDGET = 10_000_000  # executed lines for the whole generation: a slow canonical stops it early, deterministically
RUNNER_PER_INPUT_S = 2.0
MAX_REPR = 2000


class OverBudget(BaseException):
    """The canonical solution ran past LINE_BUDGET on this input (BaseException: no `except Exception` eats it)."""


SPENT = [0]  # lines executed by the canonical so far in this generation


def counted_call(function, args, budget):
    """Call with a deterministic cost limit: every executed line and call counts against ``budget``."""
    used = [0]

    def tracer(frame, event, arg):
        used[0] += 1
        if used[0] > budget:
            raise OverBudget()
        return tracer

    sys.settrace(tracer)
    try:
        return function(*copy.deepcopy(args))
    finally:
        sys.settrace(None)
        SPENT[0] += used[0]


def roundtrips(value):
    try:
        text = repr(value)
        if len(text) > MAX_REPR:
            return False
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return back == value and repr(back) == text


def load_predicate():
    """The case's own contract predicate (hidden/accepts.py), whether the derived contract still applies,
    and whether its relations between arguments do."""
    path = os.path.join(HERE, "accepts.py")
    if not os.path.isfile(path):
        return None, True, True
    namespace = {}
    with open(path, encoding="utf-8") as handle:
        exec(compile(handle.read(), path, "exec"), namespace)
    return namespace["accepts"], namespace.get("DERIVED", True), namespace.get("RELATIONS", True)


def in_contract(args, contract, predicate, derived):
    if derived and not accepts(contract, args):
        return False
    if predicate is None:
        return True
    try:
        return bool(counted_call(predicate, args, 50_000))
    except (Exception, OverBudget, RecursionError):
        return False


def line_budget(function, base):
    """The per-input budget (COST_FACTOR times the canonical's costliest recorded input, within bounds) and
    the cost of each recorded input. Counted, so the same on any host; the lines spent measuring it do
    not count against the total."""
    costs = []
    for args in base:
        before = SPENT[0]
        with contextlib.suppress(Exception, OverBudget, RecursionError):
            counted_call(function, args, MAX_LINE_BUDGET)
        costs.append(SPENT[0] - before)
    SPENT[0] = 0
    return min(MAX_LINE_BUDGET, max(LINE_BUDGET, COST_FACTOR * max(costs, default=0))), costs


def _cost_grows_with_n(base, costs):
    """A lone int argument whose recorded inputs cost more the larger they are (fib(n), fizz_buzz(n))."""
    if not base or not all(len(a) == 1 and type(a[0]) is int and a[0] >= 0 for a in base):
        return False
    ordered = [cost for _, cost in sorted(zip((a[0] for a in base), costs, strict=True))]
    return all(a <= b for a, b in zip(ordered, ordered[1:], strict=False))


def stress_inputs(function, base, contract, predicate, derived, hints, rng):
    """New inputs (not among the recorded ones) with the canonical solution's output for each; when the
    contract holds fewer than MIN_NEW new ones, the recorded inputs too (they are the problem's own)."""
    budget, costs = line_budget(function, base)
    seen = {repr(args) for args in base}
    pool, chosen, taken = list(base), [], {"edge": 0, "constant": 0}
    phases = [("edge", sweep(base, contract, rng), SWEEP_SHARE),
              ("constant", constant_sweep(base, contract, hints, rng), CONSTANT_SHARE)]
    # a lone int argument whose cost grows with it: once n ran over budget, larger n are not tried, so a slow
    # canonical's budget goes on inputs it can afford (a rule on the inputs and counted lines, not on time)
    lone_int, ceiling = _cost_grows_with_n(base, costs), None
    for _ in range(MAX_ATTEMPTS):
        if len(chosen) >= TARGET or not pool or SPENT[0] > TOTAL_BUDGET:
            break
        phase = next((name for name, queue, share in phases if queue and taken[name] < share), None)
        if phase is not None:
            args = next(queue for name, queue, _ in phases if name == phase).pop()
        else:
            # parents mostly from the recorded inputs, so the pool does not drift toward long inputs
            parent = rng.choice(base) if rng.random() < 0.6 or len(pool) == len(base) else rng.choice(pool)
            args = mutate_args(parent, contract, rng, hints)
        key = repr(args)
        if key in seen:
            continue
        seen.add(key)
        if lone_int and ceiling is not None and type(args[0]) is int and args[0] >= ceiling:
            continue
        output = _judged(function, args, contract, predicate, derived, budget)
        if output is OverBudget:
            if lone_int and type(args[0]) is int and args[0] >= 0:
                ceiling = args[0] if ceiling is None else min(ceiling, args[0])
            continue
        if output is None:
            continue
        if phase is not None:
            taken[phase] += 1
        pool.append(args)
        chosen.append((key, output))
    if len(chosen) < MIN_NEW:
        for args in base:
            output = _judged(function, args, contract, predicate, derived, budget)
            if output not in (None, OverBudget) and len(chosen) < TARGET:
                chosen.append((repr(args), output))
    return chosen


def _judged(function, args, contract, predicate, derived, budget):
    """The canonical's output for ``args`` as repr; None when the input may not be kept, OverBudget when
    the canonical ran past its budget. The second call (a canonical that is not deterministic) is made on
    every input that cost at most half the floor budget: the check is of the code, so cheap inputs suffice."""
    if not roundtrips(args) or not in_contract(args, contract, predicate, derived):
        return None
    try:
        before = SPENT[0]
        first = counted_call(function, args, budget)
        again = counted_call(function, args, budget) if SPENT[0] - before <= LINE_BUDGET // 2 else first
    except OverBudget:
        return OverBudget
    except (Exception, RecursionError):
        return None
    if not roundtrips(first) or repr(first) != repr(again):
        return None
    return repr(first)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    sys.setrecursionlimit(3000)
    with open(os.path.join(HERE, "problem.json"), encoding="utf-8") as handle:
        problem = json.load(handle)
    namespace = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    function = namespace[problem["entry_point"]]
    base = recorded_inputs(problem, namespace, function)
    contract_path = os.path.join(HERE, "contract.json")
    if os.path.isfile(contract_path):
        with open(contract_path, encoding="utf-8") as handle:
            contract = json.load(handle)
    else:
        contract = derive(base)
    predicate, derived, relations = load_predicate()
    if not relations:
        contract = dict(contract, equal_len=[], le=[])
    base = [args for args in base if in_contract(args, contract, predicate, derived)] or base
    hints = literals(problem["prompt"] + problem["canonical_solution"])
    chosen = stress_inputs(function, base, contract, predicate, derived, hints, random.Random(options.seed))
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


if __name__ == "__main__":
    main()
