"""Mutation benchmark of HumanEval's hidden tests: the share of wrong-but-plausible solutions they catch.

Mutants: every single-site mutation of each canonical solution (integer constants ±1, arithmetic
operators swapped, comparisons swapped `<`/`<=`/`>`/`>=`/`==`/`!=`, `and`/`or`, range and slice
bounds ±1), kept only when they still pass the problem's own check() — solutions a public test
would have accepted. Each kept mutant (up to ``--per-case`` per problem, chosen by a fixed seed) is
run on the hidden tests of each night; it is caught when any hidden input gives a wrong value,
raises or times out. The canonical and every shipped alternative solution run on the same tests:
any failure there is a false alarm, and the benchmark exits 1 if the current generator raises one.

"before" is the generator of ``--before`` (a git revision, default the branch point of the first
generator work, bb773f7) run with the same seeds; "after" is this checkout's. Everything runs on the
host, in worker processes with a per-input time limit (no sandboxes: this measures the tests, not the
isolation). Beside the headline rate, the mutants that no in-contract input can tell apart are
counted (hidden_equivalence.py: proved by enumerating a small domain, or argued in
hidden_equivalents.json and checked every run), with the rates over the other mutants.

With ``--corpus bench/hidden_mutants_cosmic.json`` the mutants are instead an independent corpus
(bench/mutant_corpus.py: cosmic-ray's operators, which the generator was not tuned with), all of each
problem's stored mutants; ``--half tune|held`` keeps one fixed half of its problems.

    .venv/bin/python -m bench.hidden_bench [--nights 2] [--per-case 6] [--sample N] [--jobs 2]
    .venv/bin/python -m bench.hidden_bench --corpus bench/hidden_mutants_cosmic.json [--half held]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.hidden_equivalence import argued, enumerated, mutant_id
from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.experiment.hidden_seed import case_seed
from nightshift.graders.compare import judge
from nightshift.suites.humaneval import import_humaneval
from nightshift.suites.humaneval.importer import NO_HIDDEN, case_id, read_problems

REPO = Path(__file__).resolve().parent.parent
BEFORE = "bb773f7"  # main when this generator's work began
PER_INPUT_S = 1.0
SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv,
         ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
         ast.And: ast.Or, ast.Or: ast.And}


class _Sites(ast.NodeVisitor):
    """Every node a mutation can change, in a fixed order."""

    def __init__(self) -> None:
        self.sites: list[tuple[int, str]] = []
        self.count = 0

    def generic_visit(self, node: ast.AST) -> None:
        self.count += 1
        index = self.count
        if isinstance(node, ast.Constant) and type(node.value) is int:
            self.sites += [(index, "+1"), (index, "-1")]
        elif isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in SWAPS:
            self.sites.append((index, "op"))
        elif isinstance(node, ast.Compare) and type(node.ops[0]) in SWAPS:
            self.sites.append((index, "cmp"))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "range" and node.args:
            self.sites += [(index, "range+1"), (index, "range-1")]
        super().generic_visit(node)


class _Apply(ast.NodeTransformer):
    def __init__(self, target: int, how: str) -> None:
        self.target, self.how, self.count = target, how, 0

    def generic_visit(self, node: ast.AST) -> ast.AST:
        self.count += 1
        if self.count == self.target:
            node = self._mutate(node)
        return super().generic_visit(node)

    def _mutate(self, node: ast.AST) -> ast.AST:
        if self.how in ("+1", "-1"):
            return ast.Constant(node.value + (1 if self.how == "+1" else -1))
        if self.how == "op":
            node.op = SWAPS[type(node.op)]()
        elif self.how == "cmp":
            node.ops = [SWAPS[type(node.ops[0])]()] + node.ops[1:]
        else:
            last = node.args[-1]
            node.args[-1] = ast.BinOp(last, ast.Add() if self.how == "range+1" else ast.Sub(), ast.Constant(1))
        return node


def mutants(code: str) -> list[str]:
    """Distinct single-site mutants of ``code``, as source."""
    tree = ast.parse(code)
    finder = _Sites()
    finder.visit(tree)
    out, original = {}, ast.unparse(tree)
    for target, how in finder.sites:
        mutated = ast.fix_missing_locations(_Apply(target, how).visit(ast.parse(code)))
        text = ast.unparse(mutated)
        if text != original:
            out.setdefault(text, None)
    return list(out)


def _alarm(signum, frame):
    raise TimeoutError


def _call_all(code: str, entry: str, inputs: list[str]) -> list[dict]:
    """Records like the sandbox runner's, one per input, for ``code``'s ``entry``."""
    signal.signal(signal.SIGALRM, _alarm)
    namespace: dict = {}
    try:
        signal.setitimer(signal.ITIMER_REAL, 5)
        exec(code, namespace)
        function = namespace[entry]
    except BaseException as exc:  # noqa: BLE001 - a mutant that does not even load fails every input
        return [{"error": repr(exc)}] * len(inputs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    records = []
    for text in inputs:
        signal.setitimer(signal.ITIMER_REAL, PER_INPUT_S)
        try:
            records.append({"out": repr(function(*ast.literal_eval(text)))})
        except BaseException as exc:  # noqa: BLE001
            records.append({"error": type(exc).__name__})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return records


def _passes_check(code: str, problem: dict, limit_s: float = 3.0) -> bool:
    signal.signal(signal.SIGALRM, _alarm)
    namespace: dict = {}
    signal.setitimer(signal.ITIMER_REAL, limit_s)
    try:
        exec(code, namespace)
        exec(problem["test"], namespace)
        random.seed(0)
        namespace["check"](namespace[problem["entry_point"]])
        return True
    except BaseException:  # noqa: BLE001
        return False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _generate(hidden: Path, seed: int) -> tuple[list[str], list[str]]:
    out = Path(tempfile.mkdtemp(prefix="hb-"))
    try:
        subprocess.run([sys.executable, "-I", "-S", str(hidden / "generate.py"), "--seed", str(seed), "--out",
                        str(out)], cwd=hidden, check=True, capture_output=True, timeout=300,
                       env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"})
        tests = json.loads((out / "hidden.json").read_text())["tests"]
        if not tests:
            return [], []
        inputs = json.loads((out / "files" / "inputs.json").read_text())["inputs"]
        return inputs, tests[0]["expected"]
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _caught(code: str, entry: str, inputs: list[str], expected: list[str]) -> bool:
    return any(not judge(e, r)[0] for e, r in zip(expected, _call_all(code, entry, inputs), strict=True))


def bench_case(job: dict) -> dict:
    """One problem: its kept mutants, and per generator and night which are caught, and any false alarm."""
    problem, case_dir, per_case = job["problem"], Path(job["case_dir"]), job["per_case"]
    code = problem["prompt"] + problem["canonical_solution"]
    if job.get("corpus") is not None:  # a stored corpus (mutant_corpus.py): its mutants, already checked
        kept = sorted(job["corpus"])
    else:
        kept = [m for m in mutants(code) if _passes_check(m, problem)]
        kept = sorted(random.Random(problem["task_id"]).sample(kept, min(per_case, len(kept))))
    alternatives = [p.read_text().split("<<'NIGHTSHIFT_EOF'\n", 1)[1].rsplit("NIGHTSHIFT_EOF", 1)[0]
                    for p in sorted((case_dir / "solution").glob("alt_*.sh"))]
    result = {"case": case_dir.name, "mutants": len(kept), "alternatives": len(alternatives), "runs": {},
              "missed": {}, "ids": [mutant_id(m) for m in kept]}
    for label in ("before", "after"):
        for night in job["nights"]:
            seed = case_seed(night, case_dir.name)
            inputs, expected = _generate(case_dir / f"hidden-{label}", seed)
            entry = problem["entry_point"]
            caught = [_caught(m, entry, inputs, expected) for m in kept]
            result["missed"][f"{label}/{night}"] = [i for i, c in enumerate(caught) if not c]
            result["runs"][f"{label}/{night}"] = {
                "inputs": len(inputs),
                "caught": sum(caught),
                "false_alarms": [name for name, c in [("canonical", code)] + [(f"alt_{i + 1}", a) for i, a in
                                 enumerate(alternatives)] if _caught(c, entry, inputs, expected)],
            }
    # mutants no in-contract hidden test caught: equivalent on the case's whole (small, finite) hidden-test domain?
    never = [i for i in range(len(kept)) if all(i in missed for key, missed in result["missed"].items()
                                                if key.startswith("after/"))]
    agree = enumerated(case_dir / "hidden-after", problem, [kept[i] for i in never], _call_all) if never else None
    result["enumerated"] = [i for i, same in zip(never, agree or [], strict=False) if same]
    return result


def prepare(root: Path, before: str, only: list[str] | None) -> list[tuple[dict, Path]]:
    """The suite imported by this checkout, each case with hidden-before/ (old generator) and hidden-after/."""
    suite = import_humaneval(root / "suite", only=only)
    old = {name: subprocess.run(["git", "-C", str(REPO), "show", f"{before}:suites/humaneval/{name}"],
                                check=True, capture_output=True, text=True).stdout for name in ("generate.py",)}
    jobs = []
    for problem in read_problems():
        if problem["task_id"] in NO_HIDDEN or (only and problem["task_id"] not in only):
            continue
        case_dir = suite / case_id(problem["task_id"])
        shutil.copytree(case_dir / "hidden", case_dir / "hidden-after")
        before_dir = case_dir / "hidden-before"
        before_dir.mkdir()
        for name in ("problem.json", "runner.py"):
            shutil.copy(case_dir / "hidden" / name, before_dir / name)
        (before_dir / "generate.py").write_text(old["generate.py"])
        jobs.append((problem, case_dir))
    return jobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nights", type=int, default=2, help="night seeds per case (default 2)")
    parser.add_argument("--per-case", type=int, default=6, help="kept mutants per problem (default 6)")
    parser.add_argument("--sample", type=int, default=None, help="only every k-th problem (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--before", default=BEFORE, help=f"git revision of the 'before' generator ({BEFORE})")
    parser.add_argument("--json", type=Path, default=None, help="also write every problem's figures here")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="mutants from a stored corpus (bench/hidden_mutants_cosmic.json, made by "
                             "bench/mutant_corpus.py) instead of this file's own operators")
    parser.add_argument("--half", choices=("all", "tune", "held"), default="all",
                        help="with --corpus: only the problems of one half (split by task-id hash; default all)")
    add_smoke(parser, nights=1, per_case=1, sample=82, jobs=2)
    args = apply_smoke(parser.parse_args())
    started = time.monotonic()
    problems = [p["task_id"] for p in read_problems()]
    only = problems[:: args.sample] if args.sample else None
    corpus = None if args.corpus is None else stored_corpus(args.corpus, args.half)
    if corpus is not None:
        print(f"corpus {args.corpus.name} ({json.loads(args.corpus.read_text())['tool']}), half: {args.half}")
        only = [t for t in (only or problems) if t in corpus]
    with tempfile.TemporaryDirectory(prefix="hidden-bench-") as tmp:
        jobs = prepare(Path(tmp), args.before, only)
        nights = list(range(1, args.nights + 1))
        payload = [{"problem": p, "case_dir": str(d), "per_case": args.per_case, "nights": nights,
                    "corpus": None if corpus is None else corpus.get(p["task_id"], [])} for p, d in jobs]
        if corpus is not None:
            payload = [job for job in payload if job["corpus"]]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(bench_case, payload))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return judged(args, report(results, nights, time.monotonic() - started))


def half_of(task_id: str) -> str:
    """A fixed split of the problems into two halves: "tune" (iterate on it) and "held" (report it)."""
    return "tune" if hashlib.sha256(task_id.encode()).digest()[0] % 2 == 0 else "held"


def stored_corpus(path: Path, half: str) -> dict[str, list[str]]:
    """task id -> its mutants' sources, from a corpus file, for one half or all."""
    out: dict[str, list[str]] = {}
    for mutant in json.loads(path.read_text())["mutants"]:
        if half == "all" or half_of(mutant["task_id"]) == half:
            out.setdefault(mutant["task_id"], []).append(mutant["code"])
    return out


def equivalence(results: list[dict], nights: list[int], rates: dict[str, float]) -> None:
    """The mutants shown equivalent on their contract (hidden_equivalence.py), and the rates over the rest."""
    claims = argued()
    enumerated_n, argued_n, refuted, rest = 0, 0, [], []
    for r in results:
        for i, key in enumerate(r["ids"]):
            # only the current generator's inputs are all in the contract, so only they can refute a claim
            caught = any(i not in missed for run, missed in r["missed"].items() if run.startswith("after/"))
            if i in r["enumerated"]:
                enumerated_n += 1
            elif key in claims and caught:
                refuted.append(f"{r['case']} {key}")
                rest.append((r, i))
            elif key in claims:
                argued_n += 1
            else:
                rest.append((r, i))
    print(f"equivalent on the contract: {enumerated_n} by enumerating the whole hidden-test domain, {argued_n} "
          f"argued in {Path(__file__).with_name('hidden_equivalents.json').name}"
          + (f"; refuted claims (caught, so counted): {refuted}" if refuted else ""))
    others = {}
    for label in ("before", "after"):
        hits = sum(i not in r["missed"][f"{label}/{n}"] for r, i in rest for n in nights)
        others[label] = hits / max(1, len(rest) * len(nights))
        print(f"{label:>6}: among the {len(rest)} other mutants: {hits}/{len(rest) * len(nights)} mutant-nights "
              f"= {others[label]:.1%}")
    print(f" ratio over those: after/before = {others['after'] / max(others['before'], 1e-9):.2f}x "
          f"(the headline ratio above stays {rates['after'] / max(rates['before'], 1e-9):.2f}x)")


def report(results: list[dict], nights: list[int], seconds: float) -> int:
    mutants = sum(r["mutants"] for r in results)
    print(f"{len(results)} problems, {mutants} mutants that pass HumanEval's own tests, "
          f"{sum(r['alternatives'] for r in results)} alternative solutions, nights {nights}, {seconds:.0f}s")
    rates = {}
    for label in ("before", "after"):
        caught = sum(r["runs"][f"{label}/{n}"]["caught"] for r in results for n in nights)
        alarms = [(r["case"], n, r["runs"][f"{label}/{n}"]["false_alarms"]) for r in results for n in nights
                  if r["runs"][f"{label}/{n}"]["false_alarms"]]
        inputs = [r["runs"][f"{label}/{n}"]["inputs"] for r in results for n in nights]
        rates[label] = caught / max(1, mutants * len(nights))
        print(f"{label:>6}: caught {caught}/{mutants * len(nights)} mutant-nights = {rates[label]:.1%}; "
              f"inputs per case min {min(inputs)} median {sorted(inputs)[len(inputs) // 2]}; "
              f"cases under 40 inputs {sum(i < 40 for i in inputs)}/{len(inputs)}; false alarms {len(alarms)}"
              + (f": {alarms[:8]}" if alarms else ""))
    print(f" ratio: after/before = {rates['after'] / max(rates['before'], 1e-9):.2f}x")
    # a catch on a problem-night where the same tests also failed a correct solution is no evidence: the
    # tester left the contract there (the old generator's unfair inputs); the catches on the other nights
    fair = {label: sum(r["runs"][f"{label}/{n}"]["caught"] for r in results for n in nights
                       if not r["runs"][f"{label}/{n}"]["false_alarms"]) for label in ("before", "after")}
    print(f"  fair: caught on problem-nights without a false alarm: before {fair['before']}, after {fair['after']}, "
          f"after/before = {fair['after'] / max(fair['before'], 1e-9):.2f}x")
    # mutants no input of either generator on any night tells apart are mostly equivalent to the canonical
    # (x < 1 where 0 never occurs, a palindrome loop one shorter): the rates among the others
    runs = [f"{label}/{n}" for label in ("before", "after") for n in nights]
    told = [(r, i) for r in results for i in range(r["mutants"]) if any(i not in r["missed"][k] for k in runs)]
    for label in ("before", "after"):
        hits = sum(i not in r["missed"][f"{label}/{n}"] for r, i in told for n in nights)
        print(f"{label:>6}: among the {len(told)} mutants some hidden test told apart: "
              f"{hits}/{len(told) * len(nights)} mutant-nights = {hits / max(1, len(told) * len(nights)):.1%}")
    equivalence(results, nights, rates)
    after_alarms = any(r["runs"][f"after/{n}"]["false_alarms"] for r in results for n in nights)
    return 1 if after_alarms else 0


if __name__ == "__main__":
    sys.exit(main())
