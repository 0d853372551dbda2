"""Which of hidden_bench.py's mutants no input a hidden test may hold can tell from the canonical solution.

Reported beside the benchmark's headline figure, never instead of it. Two kinds:

- **enumerated**: the case's whole hidden-test domain is small and finite — every argument an int in
  the contract's range, at most ENUM_CAP tuples — and the mutant agrees with the canonical on every
  tuple of it that is in the contract (derived + accepts.py) and within the canonical's line budget
  (the generator's own rules, loaded from the case's hidden/ folder). A proof by exhaustion.
- **argued**: listed in hidden_equivalents.json (mutant hash → the reason, e.g. "an initial value
  overwritten before it is read"). An argument, not a proof, so every run checks it: a listed mutant
  that some hidden test catches is reported as a refuted claim and counted as not equivalent.
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import json
import sys
from pathlib import Path

from nightshift.graders.compare import judge

ENUM_CAP = 20_000  # argument tuples at most
ENUM_LINES = 40_000_000  # the canonical's counted lines over the whole domain at most (else: not enumerated)
ARGUED = Path(__file__).with_name("hidden_equivalents.json")


def mutant_id(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()[:12]


def argued() -> dict[str, dict]:
    """mutant hash -> {"case", "mutant", "reason"} from hidden_equivalents.json."""
    if not ARGUED.is_file():
        return {}
    return {entry["id"]: entry for entry in json.loads(ARGUED.read_text())["mutants"]}


def _generator(hidden: Path):
    """The case's generate.py as a module (its contract, predicate, budget and counted call)."""
    spec = importlib.util.spec_from_file_location(f"hidden_generate_{hidden.parent.name}", hidden / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # puts hidden/ first on sys.path, as the generator does
    return module


def domain(hidden: Path, problem: dict) -> list[tuple[str, str]] | None:
    """(repr(args), repr(canonical output)) for every input a hidden test of this case can hold, or None
    when that set is not a small product of int ranges or costs too much to compute."""
    contract = json.loads((hidden / "contract.json").read_text())
    nodes = contract["args"]
    if len(contract["nargs"]) != 1 or not nodes or any(set(node) != {"int"} for node in nodes):
        return None
    ranges = [range(node["int"]["lo"], node["int"]["hi"] + 1) for node in nodes]
    size = 1
    for values in ranges:
        size *= len(values)
    if size > ENUM_CAP:
        return None
    gen = _generator(hidden)
    sys.setrecursionlimit(3000)
    namespace: dict = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    function = namespace[problem["entry_point"]]
    base = gen.recorded_inputs(problem, namespace, function)
    predicate, derived, relations = gen.load_predicate()
    if not relations:
        contract = dict(contract, equal_len=[], le=[])
    budget, _ = gen.line_budget(function, base)
    out = []
    for args in itertools.product(*ranges):
        if not gen.in_contract(args, contract, predicate, derived):
            continue
        try:
            value = gen.counted_call(function, args, budget)
        except (Exception, gen.OverBudget, RecursionError):
            continue  # the generator would drop it too: no hidden test can hold it
        if gen.SPENT[0] > ENUM_LINES:
            return None
        if gen.roundtrips(value):
            out.append((repr(args), repr(value)))
    return out


def enumerated(hidden: Path, problem: dict, codes: list[str], call_all) -> list[bool] | None:
    """Per mutant: True when it agrees with the canonical on the case's whole hidden-test domain;
    None when the domain cannot be enumerated. ``call_all(code, entry, inputs)`` runs a solution."""
    inputs = domain(hidden, problem)
    if inputs is None:
        return None
    return [_agrees(code, problem["entry_point"], inputs, call_all) for code in codes]


def _agrees(code: str, entry: str, inputs: list[tuple[str, str]], call_all, chunk: int = 200) -> bool:
    """Whether ``code`` gives the canonical's value on every input; stops at the first that differs."""
    for start in range(0, len(inputs), chunk):
        part = inputs[start:start + chunk]
        records = call_all(code, entry, [text for text, _ in part])
        if not all(judge(expected, record)[0] for (_, expected), record in zip(part, records, strict=True)):
            return False
    return True
