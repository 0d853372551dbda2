"""How much of the hand-written HumanEval contracts the docstring reader recovers on its own.

overrides.py holds a predicate (hidden/accepts.py) for 32 problems, each written by hand from what the
docstring promises. This bench removes every one of them and generates each problem's hidden inputs
twice with the same seed: with the contract derived from check()'s inputs and the docstring's examples
only, and with the docstring's stated rules added (stated.py, as the importer writes contract.json). It
counts the generated inputs the removed predicate rejects (inputs with no right answer: the problem does
not promise them) and the shipped alternative solutions those inputs fail. The predicates stand for
problems nobody wrote one for; what the stated rules cannot express (balanced brackets, permutation
grids, a unique closest pair) stays out of reach of both.

    .venv/bin/python -m bench.hidden_contracts [--seed 1] [--jobs 2]
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.hidden_bench import _caught, _generate
from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.suites.humaneval import import_humaneval
from nightshift.suites.humaneval.contract import derive, recorded_inputs
from nightshift.suites.humaneval.importer import case_id, read_problems
from nightshift.suites.humaneval.overrides import OVERRIDES
from nightshift.suites.humaneval.stated import examples


def _derived_only(problem: dict) -> dict:
    namespace: dict = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    inputs = recorded_inputs(problem, namespace, namespace[problem["entry_point"]])
    return derive(inputs + examples(problem["prompt"], problem["entry_point"], inputs))


def bench_case(job: dict) -> dict:
    problem, hidden, seed = job["problem"], Path(job["hidden"]), job["seed"]
    namespace: dict = {}
    exec((hidden / "accepts.py").read_text(), namespace)
    promise = namespace["accepts"]
    alternative = job["alternative"]
    out = {"case": hidden.parent.name, "stated": len(json.loads((hidden / "contract.json").read_text())["stated"])}
    for label in ("derived", "stated"):
        variant = hidden.parent / f"hidden-{label}"
        shutil.copytree(hidden, variant)
        (variant / "accepts.py").unlink()
        if label == "derived":
            (variant / "contract.json").write_text(json.dumps(_derived_only(problem)))
        inputs, expected = _generate(variant, seed)
        outside = 0
        for text in inputs:
            try:
                outside += not promise(*ast.literal_eval(text))
            except Exception:  # noqa: BLE001 - an input the predicate cannot even read is outside it
                outside += 1
        out[label] = {"inputs": len(inputs), "outside": outside,
                      "alternative_fails": bool(alternative) and _caught(alternative, problem["entry_point"],
                                                                         inputs, expected)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    add_smoke(parser, jobs=1)
    parser.add_argument("--only", nargs="*", default=None, help="task ids (default: every problem with an override)")
    args = apply_smoke(parser.parse_args())
    if args.smoke:
        args.only = ["HumanEval/156", "HumanEval/1"]
    started = time.monotonic()
    ids = [t for t in OVERRIDES if args.only is None or t in args.only]
    problems = {p["task_id"]: p for p in read_problems()}
    with tempfile.TemporaryDirectory(prefix="hidden-contracts-") as tmp:
        suite = import_humaneval(Path(tmp), only=ids)
        jobs = []
        for task in ids:
            folder = suite / case_id(task)
            alt = folder / "solution" / "alt_1.sh"
            code = alt.read_text().split("<<'NIGHTSHIFT_EOF'\n", 1)[1].rsplit("NIGHTSHIFT_EOF", 1)[0] \
                if alt.is_file() else None
            jobs.append({"problem": problems[task], "hidden": str(folder / "hidden"), "seed": args.seed,
                         "alternative": code})
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(bench_case, jobs))
    print(f"{len(results)} problems with a hand-written contract, removed; seed {args.seed}; "
          f"{time.monotonic() - started:.0f}s")
    for label, name in (("derived", "derived + examples only"), ("stated", "with the docstring's stated rules")):
        inputs = sum(r[label]["inputs"] for r in results)
        outside = [r for r in results if r[label]["outside"]]
        fails = [r["case"] for r in results if r[label]["alternative_fails"]]
        print(f"{name:>34}: {sum(r[label]['outside'] for r in results)}/{inputs} inputs outside the hand-written "
              f"contract, on {len(outside)} problems; alternatives failed: {len(fails)} {fails}")
    fixed = [r["case"] for r in results if r["derived"]["outside"] and not r["stated"]["outside"]]
    print(f"problems the stated rules bring fully inside the hand-written contract: {len(fixed)} {fixed}")
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
