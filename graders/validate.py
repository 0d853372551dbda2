"""validate-suite: check every case of a suite in parallel sandboxes and print one table.

Per case: the oracle ``repeats`` times (must resolve every time; tests that change their answer
are flaky and excluded), then the untouched workspace (must fail every FAIL_TO_PASS test). The
result is merged into the suite's validation record, which runs require before they use the suite.
"""

from __future__ import annotations

import os
import textwrap
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from nightshift.contracts import SandboxBackend
from nightshift.graders.case_grader import GRADER_VERSION, CaseGrader
from nightshift.graders.oracle import CaseCheck, check_case
from nightshift.models import Case, GradeResult
from nightshift.suites.validation import CaseRecord, SuiteRecord


@dataclass
class SuiteValidation:
    """Every case's check, the record built from them, and the wall time of the whole validation."""

    checks: list[CaseCheck]
    record: SuiteRecord
    seconds: float

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def default_jobs() -> int:
    # a sandbox exec spends most of its wall time starting the jail, not computing (measured: 6 threads
    # on 2 cores checked 12 HumanEval cases in 12.6 s, 3 threads in 22 s)
    return 3 * (os.cpu_count() or 1)


def _counts(grade: GradeResult | None) -> dict[str, list[int] | float]:
    if grade is None:
        return {}
    return {"f2p": list(grade.f2p), "p2p": list(grade.p2p), "hidden": list(grade.hidden),
            "checkpoints": list(grade.checkpoints), "progress": grade.progress}


def validate_cases(cases: list[Case], backend: SandboxBackend, repeats: int = 3, jobs: int | None = None,
                   on_done: Callable[[CaseCheck], None] | None = None) -> SuiteValidation:
    """Check every case with ``jobs`` threads (sandboxes are processes, so threads suffice)."""
    started = time.monotonic()
    grader = CaseGrader()
    checks: list[CaseCheck] = []
    with ThreadPoolExecutor(max_workers=jobs or default_jobs()) as pool:
        futures = {pool.submit(check_case, case, backend, grader, repeats): case for case in cases}
        for future in as_completed(futures):
            case = futures[future]
            try:
                check = future.result()
            except Exception as exc:  # noqa: BLE001 - one broken case must not hide the others' results
                check = CaseCheck(case.id, problems=[f"validation crashed: {type(exc).__name__}: {exc}"[:500]])
            checks.append(check)
            if on_done:
                on_done(check)
    checks.sort(key=lambda c: c.case_id)
    by_id = {c.id: c for c in cases}
    suite = cases[0].suite if cases else ""
    record = SuiteRecord(suite=suite, grader_version=GRADER_VERSION, repeats=repeats, cases={
        c.case_id: CaseRecord(content_hash=by_id[c.case_id].content_hash, ok=c.ok, problems=c.problems,
                              flaky=c.flaky, oracle=_counts(c.oracle), empty=_counts(c.empty),
                              outputs=_outputs(by_id[c.case_id], c), seconds=round(c.seconds, 3),
                              gold_resolved=c.gold_resolved, breaking=c.breaking)
        for c in checks})
    return SuiteValidation(checks=checks, record=record, seconds=time.monotonic() - started)


def _outputs(case: Case, check: CaseCheck) -> dict[str, str]:
    if case.protected:  # held-out test output never leaves the run's own folder
        return {}
    return {f"{tag}/{t.name}": t.output for tag, grade in (("oracle", check.oracle), ("empty", check.empty))
            if grade is not None for t in grade.tests if t.output}


def _headline(problems: list[str]) -> str:
    # the table shows the start of each reason, cut at a word; the whole reason is printed below it
    return "; ".join(textwrap.shorten(p.splitlines()[0], 90, placeholder=" ...") if p else "" for p in problems)


def _pair(grade: GradeResult | None, attr: str) -> str:
    if grade is None:
        return "-"
    passed, total = getattr(grade, attr)
    return f"{passed}/{total}" if total else "-"


def print_validation(result: SuiteValidation, cases: list[Case], console: Console, verbose: bool = False) -> None:
    """The table: every case when ``verbose`` or when it has a problem or a flaky test, then a summary line."""
    domains = {c.id: c.domain for c in cases}
    table = Table(title=f"validate-suite: {len(result.checks)} cases")
    for column in ("case", "domain", "oracle F2P", "P2P", "hidden", "progress", "empty F2P", "flaky", "s", "verdict"):
        table.add_column(column, justify="right" if column in ("s", "progress") else "left",
                         overflow="fold")
    shown = 0
    for check in result.checks:
        if not (verbose or check.problems or check.flaky):
            continue
        shown += 1
        progress = f"{check.oracle.progress:.2f}/{check.empty.progress:.2f}" if check.oracle and check.empty else "-"
        verdict = "[green]ok[/green]" if check.ok else "[red]" + escape(_headline(check.problems)) + "[/red]"
        table.add_row(check.case_id, domains.get(check.case_id, ""), _pair(check.oracle, "f2p"),
                      _pair(check.oracle, "p2p"), _pair(check.oracle, "hidden"), progress,
                      _pair(check.empty, "f2p"), ", ".join(check.flaky)[:40] or "-", f"{check.seconds:.1f}", verdict)
    if shown:
        console.print(table)
    for check in result.checks:  # the whole reason, output folded by whole lines, below the table
        for problem in check.problems:
            console.print(f"[red]{escape(check.case_id)}[/red]: {escape(problem)}", soft_wrap=True)
    failed = [c for c in result.checks if not c.ok]
    flaky = sum(len(c.flaky) for c in result.checks)
    hidden = sum(c.oracle.hidden[1] for c in result.checks if c.oracle)
    print_rates(result.checks, console)
    colour = "green" if not failed else "red"
    console.print(f"[{colour}]{len(result.checks) - len(failed)}/{len(result.checks)} cases valid[/{colour}], "
                  f"{len({domains.get(c.case_id) for c in result.checks})} domains, {hidden} hidden tests on the "
                  f"oracle, {flaky} flaky tests excluded, {result.seconds:.1f}s wall")


def print_rates(checks: list[CaseCheck], console: Console) -> None:
    """The gold resolve rate, the untouched workspace's failure rate and the breaking patches caught."""
    if not checks:
        return
    gold = sum(c.gold_resolved for c in checks)
    untouched = sum(1 for c in checks if c.empty is not None and c.empty.f2p[1] and c.empty.f2p[0] == 0)
    caught, run = sum(c.breaking[0] for c in checks), sum(c.breaking[1] for c in checks)
    line = (f"gold resolve rate {gold}/{len(checks)} ({gold / len(checks):.0%}); untouched workspace fails every "
            f"FAIL_TO_PASS test: {untouched}/{len(checks)}")
    if run:
        line += f"; breaking patches caught {caught}/{run}"
    console.print(line, markup=False, highlight=False)
