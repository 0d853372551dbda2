"""What the guarded pytest run costs: a built repository case's grading command (run_tests.sh through
suites/pypi_tasks/guarded_pytest.py) beside the same pytest command without the guard, alternated in one
container of the case's image over the gold-patched workspace, so both see the same load.

    .venv/bin/python -m bench.guard_bench [--suite .nightshift/suites/shipped-pypi] [--cases ID,...] [--runs 5]

Prints per case the median wall seconds of each and their ratio, and checks both report the same verdicts.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from nightshift.suites import load_cases
from nightshift.suites.pypi_tasks.image import client
from nightshift.suites.pypi_tasks.upstream import TestBench

DEFAULT_CASES = "jinja2-3.1.3-copy,click-8.1.7-group,more-itertools-10.2.0-first,tomlkit-0.12.4-to-0.12.5"


def _unguarded(run_tests: str) -> str:
    """run_tests.sh as it was before the guard: pytest itself writes the report where the grader says."""
    text = run_tests.replace(" /grader/tests/guarded_pytest.py ", " -m pytest ")
    text = text.replace(" -q \\\n", ' -q --junitxml "$report" \\\n').replace(' 3<<<"$report"', "")
    return text.replace("unset NIGHTSHIFT_JUNIT", "true")


def bench_case(case, runs: int, scratch: Path) -> tuple[float, float, bool]:
    work = scratch / case.id / "workspace"
    shutil.copytree(case.workspace_dir, work, symlinks=True)
    solve = (case.root / "solution" / "solve.sh").read_text().replace("cd /workspace", f"cd {work}")
    subprocess.run(["bash", "-c", solve], capture_output=True, check=True, timeout=120)
    guarded, plain = scratch / case.id / "guarded", scratch / case.id / "plain"
    shutil.copytree(case.tests_dir, guarded)
    shutil.copytree(case.tests_dir, plain)
    (plain / "run_tests.sh").write_text(_unguarded((guarded / "run_tests.sh").read_text()))
    times: dict[str, list[float]] = {"guarded": [], "plain": []}
    verdicts: dict[str, dict] = {}
    api = client()
    benches = {name: TestBench(api, case.image, work, folder) for name, folder in (("guarded", guarded),
                                                                                  ("plain", plain))}
    try:
        for _ in range(runs):
            for name, bench in benches.items():
                started = time.perf_counter()
                results, _code, output = bench.run(600)
                times[name].append(time.perf_counter() - started)
                if not results:
                    raise SystemExit(f"{case.id} ({name}): no report: {output[-400:]}")
                verdicts[name] = {k: v[0] for k, v in results.items()}
    finally:
        for bench in benches.values():
            bench.close()
    return statistics.median(times["guarded"]), statistics.median(times["plain"]), \
        verdicts["guarded"] == verdicts["plain"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=Path(".nightshift/suites/shipped-pypi"))
    parser.add_argument("--cases", default=DEFAULT_CASES)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    cases = {c.id: c for c in load_cases(args.suite)}
    wanted = args.cases.split(",")
    missing = [c for c in wanted if c not in cases]
    if missing:
        print(f"{args.suite}: no case {missing}; build it with `nightshift build-suite pypi`")
        return 2
    print("| case | tests | guarded, median s | plain pytest, median s | guarded / plain | same verdicts |\n"
          "| --- | --- | --- | --- | --- | --- |")
    same_all = True
    with tempfile.TemporaryDirectory(prefix="guard-bench-") as scratch:
        for case_id in wanted:
            case = cases[case_id]
            guarded, plain, same = bench_case(case, args.runs, Path(scratch))
            same_all &= same
            tests = len(case.fail_to_pass) + len(case.pass_to_pass)
            print(f"| {case_id} | {tests} | {guarded:.2f} | {plain:.2f} | {guarded / plain:.2f} | "
                  f"{'yes' if same else 'NO'} |")
    return 0 if same_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
