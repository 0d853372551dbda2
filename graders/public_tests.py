"""Run a case's public tests (FAIL_TO_PASS and PASS_TO_PASS) in the sandbox, one process per test."""

from __future__ import annotations

from nightshift.contracts import Sandbox
from nightshift.models import Case, GradeResult, TestOutcome
from suites.loader import test_file

GRADER_VERSION = "public-tests/1"
# -S: no site hooks, so a sitecustomize.py or .pth the agent left in /workspace cannot rig the tests
_RUNNERS = {".py": "python3 -S", ".sh": "bash"}
TEST_ENV = {"PYTHONPATH": "/workspace"}


class PublicTestGrader:
    def grade(self, case: Case, sandbox: Sandbox) -> GradeResult:
        sandbox.copy_in(case.tests_dir, "/grader/tests")
        outcomes = []
        for kind, names in (("fail_to_pass", case.fail_to_pass), ("pass_to_pass", case.pass_to_pass)):
            for name in names:
                path = test_file(case, name)
                assert path is not None, f"{case.id}: test {name} vanished after loading"
                result = sandbox.exec(f"{_RUNNERS[path.suffix]} /grader/tests/{path.name}",
                                      timeout_s=case.limits.test_timeout_s, env=TEST_ENV)
                detail = "timed out" if result.timed_out else (result.stdout + result.stderr)[-500:]
                outcomes.append(TestOutcome(name=name, kind=kind, passed=result.exit_code == 0 and not result.timed_out,
                                            duration_s=result.duration_s, detail=detail))
        return GradeResult(tests=outcomes)
