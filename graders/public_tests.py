"""Run a case's public tests (FAIL_TO_PASS and PASS_TO_PASS) and its progress checkpoints in the sandbox.

Each test is one process (``tests/test_<name>.py`` or ``.sh``) unless the case names a test runner,
which runs every listed test at once and reports each by name (SWE-bench style). Everything runs
with cwd /workspace and PYTHONPATH=/workspace, Python with ``-S``.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from nightshift.contracts import Sandbox
from nightshift.graders.logs import PARSERS, fold, harbor_verdict, reward_in
from nightshift.models import Case, TestOutcome
from nightshift.suites.junit import JunitError, parse_junit
from nightshift.suites.loader import checkpoint_file, test_file

# -S: no site hooks, so a sitecustomize.py or .pth the agent left in /workspace cannot rig the tests
_RUNNERS = {".py": "python3 -S", ".sh": "bash"}
TEST_ENV = {"PYTHONPATH": "/workspace"}


def command_for(path: Path, sandbox_dir: str) -> str:
    return f"{_RUNNERS.get(path.suffix, 'bash')} {sandbox_dir}/{path.name}"


def run_command(sandbox: Sandbox, name: str, kind: str, command: str, timeout_s: float,
                excluded: bool = False, weight: float = 1.0, harbor: bool = False) -> TestOutcome:
    """One check: passes on exit 0 within the timeout; a printed reward line gives partial credit.
    ``harbor``: the command is a Harbor verifier wrapper, and its result line decides instead."""
    result = sandbox.exec(command, timeout_s=timeout_s, env=TEST_ENV)
    output = result.stdout + ("\n" + result.stderr if result.stderr.strip() else "")
    if harbor:
        verdict = harbor_verdict(result.stdout)
        ok = verdict.passed and result.exit_code == 0 and not result.timed_out
        why = "timed out" if result.timed_out else verdict.detail
        return TestOutcome(name=name, kind=kind, passed=ok, duration_s=result.duration_s, excluded=excluded,
                           detail=f"{why}\n{fold(output)}", weight=weight, reward=verdict.reward,
                           scores=verdict.scores, output=output)
    passed = result.exit_code == 0 and not result.timed_out
    detail = "timed out" if result.timed_out else fold(output)
    return TestOutcome(name=name, kind=kind, passed=passed, duration_s=result.duration_s, detail=detail,
                       excluded=excluded, weight=weight, reward=reward_in(result.stdout), output=output)


def _listed(case: Case) -> list[tuple[str, str]]:
    """The tests run from files: every listed one but a timing step's (graders/timing_step.py decides that)."""
    timed = case.timing.name if case.timing else None
    return ([("fail_to_pass", n) for n in case.fail_to_pass if n != timed]
            + [("pass_to_pass", n) for n in case.pass_to_pass])


def run_public_tests(case: Case, sandbox: Sandbox) -> list[TestOutcome]:
    """FAIL_TO_PASS then PASS_TO_PASS outcomes; tests copied to /grader/tests first."""
    sandbox.copy_in(case.tests_dir, "/grader/tests")
    if case.test_runner:
        return _run_with_runner(case, sandbox)
    outcomes = []
    for kind, name in _listed(case):
        path = test_file(case, name)
        assert path is not None, f"{case.id}: test {name} vanished after loading"
        outcomes.append(run_command(sandbox, name, kind, command_for(path, "/grader/tests"),
                                    case.limits.test_timeout_s, excluded=name in case.excluded_tests,
                                    harbor=case.test_log_format == "harbor"))
    return outcomes


def _run_with_runner(case: Case, sandbox: Sandbox) -> list[TestOutcome]:
    assert case.test_runner is not None
    script = case.tests_dir / case.test_runner
    if case.test_log_format == "junit":
        return _run_junit(case, sandbox, command_for(script, "/grader/tests"))
    result = sandbox.exec(command_for(script, "/grader/tests"), timeout_s=case.limits.test_timeout_s, env=TEST_ENV)
    found = PARSERS[case.test_log_format](result.stdout + "\n" + result.stderr)
    share = result.duration_s / max(1, len(_listed(case)))
    outcomes = []
    for kind, name in _listed(case):
        if name in found:
            passed, detail = found[name], "" if found[name] else "reported failed"
        else:
            passed, detail = False, "timed out before reporting" if result.timed_out else "not reported by the runner"
        outcomes.append(TestOutcome(name=name, kind=kind, passed=passed, duration_s=share, detail=detail,
                                    excluded=name in case.excluded_tests))
    return outcomes


# suites/pypi_tasks/guarded_pytest.py's VOID (that script imports pytest, so it is not imported here): an agent's
# patch that tampered with the run fails every listed test, like any other non-verdict (never infra_error)
GUARD_VOID = 17


def _run_junit(case: Case, sandbox: Sandbox, command: str) -> list[TestOutcome]:
    """The runner writes a junit report where we say; its verdicts count only when pytest's exit code agrees
    (0: every reported test passed; 1: at least one failed). A printed log is never read."""
    # a fresh name the agent cannot know before grading; under /workspace, the part a grader can read directly
    report = f"/workspace/.nightshift-junit-{uuid.uuid4().hex}.xml"
    result = sandbox.exec(command, timeout_s=case.limits.test_timeout_s, env={**TEST_ENV, "NIGHTSHIFT_JUNIT": report})
    log = fold(result.stdout + ("\n" + result.stderr if result.stderr.strip() else ""))
    found: dict[str, bool] = {}
    failed = False
    problem = ""
    text = _read_report(sandbox, report)  # read (and removed) whatever the exit code
    if result.timed_out:
        problem = f"the test run timed out after {case.limits.test_timeout_s} s"
    elif result.exit_code == GUARD_VOID:
        problem = (f"the run is void (exit {GUARD_VOID}): the code under test changed how pytest reports "
                   f"(guarded_pytest.py; the log below names what)")
    elif result.exit_code not in (0, 1):
        problem = f"pytest exited {result.exit_code} (not a test verdict)"
    else:
        try:
            parsed = parse_junit(text)
            found, failed = {name: r[0] for name, r in parsed.items()}, any(r[3] for r in parsed.values())
        except JunitError as exc:
            problem = f"unreadable junit report: {exc}"
        if not problem and not found:
            problem = "the runner wrote no junit report"
        elif not problem and (result.exit_code == 1) != failed:
            problem = f"the junit report and pytest's exit code {result.exit_code} disagree"
            found = {}
    share = result.duration_s / max(1, len(_listed(case)))
    outcomes = []
    for kind, name in _listed(case):
        passed = found.get(name, False)
        detail = problem or ("" if passed else "reported failed" if name in found else "not in the junit report")
        outcomes.append(TestOutcome(name=name, kind=kind, passed=passed, duration_s=share,
                                    detail=f"{detail}\n{log}" if detail else "", excluded=name in case.excluded_tests))
    return outcomes


def _read_report(sandbox: Sandbox, path: str) -> str:
    try:
        data = sandbox.read_file(path)
    except (OSError, ValueError, RuntimeError):  # absent, a link, a FIFO: no report
        return "<testsuites/>"
    finally:
        sandbox.exec(f"rm -f {path}", timeout_s=30)  # not part of the agent's diff
    return data.decode("utf-8", errors="replace")


def run_checkpoints(case: Case, sandbox: Sandbox, public: list[TestOutcome]) -> list[TestOutcome]:
    """Checkpoints named by tests reuse the public outcomes; the others run checkpoints/check_<name>."""
    passed = {t.name: t.passed for t in public}
    if any(not mark.tests for mark in case.checkpoints):
        sandbox.copy_in(case.root / "checkpoints", "/grader/checkpoints")
    outcomes = []
    for mark in case.checkpoints:
        if mark.tests:
            ok = all(passed.get(name, False) for name in mark.tests)
            outcomes.append(TestOutcome(name=mark.name, kind="checkpoint", passed=ok, duration_s=0.0,
                                        weight=mark.weight, detail="" if ok else f"needs {mark.tests}"))
            continue
        path = checkpoint_file(case, mark.name)
        assert path is not None, f"{case.id}: checkpoint {mark.name} vanished after loading"
        outcomes.append(run_command(sandbox, mark.name, "checkpoint", command_for(path, "/grader/checkpoints"),
                                    case.limits.test_timeout_s, excluded=mark.name in case.excluded_tests,
                                    weight=mark.weight))
    return outcomes
