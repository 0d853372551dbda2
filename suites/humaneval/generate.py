"""Hidden stress tests for one HumanEval case: contract-aware input mutation, judged by the canonical solution.

Run on the grading host as ``python3 -I -S generate.py --seed N --out DIR`` (stdlib only). It
records the inputs the problem's own check() feeds the canonical solution, then tries new inputs —
a boundary sweep first, then mutations (mutate.py) — and keeps those that are in the input
contract (contract.json, derived by the importer, and hidden/accepts.py when the case has one),
survive repr/literal_eval, and on which the canonical solution returns the same value twice within
a counted budget of executed lines (per input, and for the whole generation). Nothing depends on
time or load: the same (case, seed) gives byte-identical output on any host. Writes
DIR/files/{runner.py,inputs.json} and DIR/hidden.json.
"""

import argparse
import ast
import copy
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # -I leaves the script's folder off sys.path

from contract import accepts, derive, recorded_inputs  # noqa: E402
from mutate import fresh, mutate_args  # noqa: E402

TARGET = 80
MAX_ATTEMPTS = 8000
SWEEP_SHARE = 15  # at most this many kept inputs come from the boundary sweep; the rest are seeded mutations
LINE_BUDGET = 100_000  # executed lines the canonical may spend on one input (counted, so load cannot change it)
TOTAL_BUDGET = 4_000_000  # executed lines for the whole generation: a slow canonical stops it early, deterministically
RUNNER_PER_INPUT_S = 2.0
MAX_REPR = 2000


class OverBudget(BaseException):
    """The canonical solution ran past LINE_BUDGET on this input (BaseException: no `except Exception` eats it)."""


SPENT = [0]  # lines executed by the canonical so far in this generation


def counted_call(function, args, budget=LINE_BUDGET):
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
    """The case's own contract predicate (hidden/accepts.py) and whether the derived contract still applies."""
    path = os.path.join(HERE, "accepts.py")
    if not os.path.isfile(path):
        return None, True
    namespace = {}
    with open(path, encoding="utf-8") as handle:
        exec(compile(handle.read(), path, "exec"), namespace)
    return namespace["accepts"], namespace.get("DERIVED", True)


def in_contract(args, contract, predicate, derived):
    if derived and not accepts(contract, args):
        return False
    if predicate is None:
        return True
    try:
        return bool(counted_call(predicate, args, 50_000))
    except (Exception, OverBudget, RecursionError):
        return False


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
            picks = (0, 1, -1, slot["lo"], slot["hi"], *slot.get("seen", []))
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


def stress_inputs(function, base, contract, predicate, derived, rng):
    """New inputs (not among the recorded ones) with the canonical solution's output for each."""
    seen = {repr(args) for args in base}
    pool, chosen, from_sweep = list(base), [], 0
    boundary = sweep(base, contract, rng)
    for _ in range(MAX_ATTEMPTS):
        if len(chosen) >= TARGET or not pool or SPENT[0] > TOTAL_BUDGET:
            break
        if boundary and from_sweep < SWEEP_SHARE:
            args, is_edge = boundary.pop(), True
        else:
            # parents mostly from the recorded inputs, so the pool does not drift toward long inputs
            parent = rng.choice(base) if rng.random() < 0.6 or len(pool) == len(base) else rng.choice(pool)
            args, is_edge = mutate_args(parent, contract, rng), False
        key = repr(args)
        if key in seen:
            continue
        seen.add(key)
        if not roundtrips(args) or not in_contract(args, contract, predicate, derived):
            continue
        try:
            first = counted_call(function, args)
            again = counted_call(function, args)
        except (Exception, OverBudget, RecursionError):
            continue
        if not roundtrips(first) or repr(first) != repr(again):
            continue
        from_sweep += is_edge
        pool.append(args)
        chosen.append((key, repr(first)))
    return chosen


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
    predicate, derived = load_predicate()
    base = [args for args in base if in_contract(args, contract, predicate, derived)] or base
    chosen = stress_inputs(function, base, contract, predicate, derived, random.Random(options.seed))
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
