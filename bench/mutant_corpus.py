"""Builds the independent mutant corpus for bench/hidden_bench.py: cosmic-ray's operators, not the generator's.

The hidden-test generator was tuned against hidden_bench.py's own mutants (int constants ±1, arithmetic and
comparison swaps, ``and``/``or``, ``range`` bounds ±1), so that corpus measures what it was tuned on. This one
applies every operator of cosmic-ray (a mutation tool from PyPI, pinned in the ``bench`` extra: binary and
unary operator replacement with every partner, comparison replacement including ``is``/``in``, number
replacement, ``not`` added, ``break``/``continue`` swapped, a ``for`` loop run zero times, keywords and
booleans replaced, exception handlers widened) at every occurrence in each HumanEval canonical solution and
each shipped alternative, keeps the mutants whose change lies in the entry function, that differ from every
mutant hidden_bench.py's own operators make, and that still pass the problem's own check() — wrong
solutions a public test accepts — and writes up to ``--per-source`` of them per solution (a fixed seed) to
bench/hidden_mutants_cosmic.json. Nothing from the hidden-test generator is used to choose them.

    .venv/bin/python -m bench.mutant_corpus [--per-source 3] [--jobs 2]
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path

from bench.hidden_bench import _passes_check, mutants
from bench.hidden_equivalence import mutant_id
from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.suites.humaneval.importer import HERE, NO_HIDDEN, case_id, read_problems

OUT = Path(__file__).with_name("hidden_mutants_cosmic.json")
CHECK_S = 1.0  # check() takes milliseconds on a canonical; a mutant past this loops (cosmic-ray makes many)
MAX_OCCURRENCES = 400  # per operator and solution; no HumanEval solution comes near it


@functools.cache
def _operators() -> list[tuple[str, object]]:
    from cosmic_ray.plugins import get_operator, operator_names

    out = []
    for name in sorted(operator_names()):
        try:
            out.append((name, get_operator(name)()))
        except TypeError:  # VariableInserter/Replacer need a variable named by hand: not a blind operator
            continue
    return out


def _entry_source(code: str, entry: str) -> str | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = [ast.unparse(n) for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == entry]
    return found[0] if found else None


def cosmic_mutants(code: str, entry: str) -> list[tuple[str, str]]:
    """(operator name, mutant source) for every cosmic-ray mutation that changes ``entry``, distinct by AST."""
    from cosmic_ray.mutating import mutate_code

    original, seen, out = _entry_source(code, entry), set(), []
    for name, operator in _operators():
        for occurrence in range(MAX_OCCURRENCES):
            mutated = mutate_code(code, operator, occurrence)
            if mutated is None:
                break
            changed = _entry_source(mutated, entry)
            if changed is None or changed == original:
                continue
            key = ast.unparse(ast.parse(mutated))
            if key not in seen:
                seen.add(key)
                out.append((name, mutated))
    return out


def build_source(job: dict) -> list[dict]:
    """One solution's kept mutants: not made by hidden_bench's operators, passing check()."""
    problem, code, source, per_source = job["problem"], job["code"], job["source"], job["per_source"]
    tuned = {ast.unparse(ast.parse(m)) for m in mutants(code)}
    kept = []
    for operator, mutated in cosmic_mutants(code, problem["entry_point"]):
        if ast.unparse(ast.parse(mutated)) in tuned or not _passes_check(mutated, problem, CHECK_S):
            continue
        kept.append({"task_id": problem["task_id"], "source": source, "operator": operator, "code": mutated,
                     "id": mutant_id(mutated)})
    rng = random.Random(f"{problem['task_id']}/{source}")
    return sorted(rng.sample(kept, min(per_source, len(kept))), key=lambda m: m["id"]) + \
        [{"task_id": problem["task_id"], "source": source, "count": len(kept)}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-source", type=int, default=3, help="mutants kept per solution (default 3)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--only", nargs="*", default=None, help="task ids (default: every problem with hidden tests)")
    # the smoke run writes beside the temporary files, never over the stored corpus
    add_smoke(parser, only=["HumanEval/0"], per_source=1, out=Path(tempfile.gettempdir()) / "mutants-smoke.json")
    args = apply_smoke(parser.parse_args())
    started = time.monotonic()
    jobs = []
    for problem in read_problems():
        if problem["task_id"] in NO_HIDDEN or (args.only and problem["task_id"] not in args.only):
            continue
        jobs.append({"problem": problem, "code": problem["prompt"] + problem["canonical_solution"],
                     "source": "canonical", "per_source": args.per_source})
        alternative = HERE / "alternatives" / f"{case_id(problem['task_id'])}.py"
        if alternative.is_file():
            jobs.append({"problem": problem, "code": alternative.read_text(), "source": "alt_1",
                         "per_source": args.per_source})
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(build_source, jobs))
    kept = [m for r in results for m in r if "code" in m]
    counts = {f"{r[-1]['task_id']} {r[-1]['source']}": r[-1]["count"] for r in results}
    operators: dict[str, int] = {}
    for m in kept:
        operators[m["operator"]] = operators.get(m["operator"], 0) + 1
    args.out.write_text(json.dumps({
        "tool": f"cosmic-ray {version('cosmic-ray')}", "per_source": args.per_source,
        "note": "cosmic-ray mutants of HumanEval canonical and shipped alternative solutions that pass check() "
                "and that hidden_bench.py's own (tuning) operators do not make; the generator was not tuned on them",
        "passing_check": counts, "mutants": kept}, indent=1) + "\n")
    print(f"{len(jobs)} solutions, {sum(counts.values())} cosmic-ray mutants pass check() and are not tuned-corpus "
          f"mutants, {len(kept)} kept (≤ {args.per_source} per solution) -> {args.out} "
          f"({time.monotonic() - started:.0f}s)")
    print("kept per operator: " + ", ".join(f"{k.removeprefix('core/')} {v}" for k, v in
                                            sorted(operators.items(), key=lambda kv: -kv[1])))
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
