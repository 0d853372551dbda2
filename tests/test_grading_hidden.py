"""Hidden stress tests: generated at grade time from a seed, catch overfitting, flaky tests are excluded."""

import json
from pathlib import Path

import pytest

from nightshift.contracts import SandboxSpec
from nightshift.errors import SuiteError
from nightshift.graders import CaseGrader
from nightshift.graders.hidden import HiddenTestSource, generate
from nightshift.graders.oracle import check_case, flaky_names
from nightshift.models import AgentOutcome, GradeResult, TestOutcome, TrialStatus
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from nightshift.suites.humaneval import import_humaneval
from nightshift.suites.validation import SuiteRecord, require_validated, write_record
from nightshift.tasks.run_trial import decide_status
from tests.conftest import BUILTIN

# HumanEval/0 with the answers of its public check() memorised: it passes check(), and nothing else
MEMORISED = '''from typing import List

ANSWERS = {
    ((1.0, 2.0, 3.9, 4.0, 5.0, 2.2), 0.3): True, ((1.0, 2.0, 3.9, 4.0, 5.0, 2.2), 0.05): False,
    ((1.0, 2.0, 5.9, 4.0, 5.0), 0.95): True, ((1.0, 2.0, 5.9, 4.0, 5.0), 0.8): False,
    ((1.0, 2.0, 3.0, 4.0, 5.0, 2.0), 0.1): True, ((1.1, 2.2, 3.1, 4.1, 5.1), 1.0): True,
    ((1.1, 2.2, 3.1, 4.1, 5.1), 0.5): False,
}


def has_close_elements(numbers: List[float], threshold: float) -> bool:
    return ANSWERS.get((tuple(numbers), threshold), False)
'''


@pytest.fixture(scope="module")
def humaneval_cases(tmp_path_factory) -> list:
    folder = import_humaneval(tmp_path_factory.mktemp("humaneval"), only=["HumanEval/0", "HumanEval/32"])
    return load_cases(folder)


def _grade_with(case, files: dict[str, str]) -> GradeResult:
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id=f"t-{case.id}",
                                                     workspace_source=case.workspace_dir))
    try:
        for path, text in files.items():
            sandbox.write_file(path, text.encode())
        return CaseGrader().grade(case, sandbox)
    finally:
        sandbox.destroy()


def test_memorised_solution_passes_public_tests_but_fails_hidden_stress_tests(humaneval_cases) -> None:
    case = humaneval_cases[0]
    assert case.id == "humaneval-000" and case.hidden is not None
    grade = _grade_with(case, {"/workspace/solution.py": MEMORISED})
    assert grade.f2p == (1, 1)  # HumanEval's own check() is fooled
    passed, total = grade.hidden
    assert total >= 20 and passed < total  # the mutated inputs are not
    assert decide_status(AgentOutcome(ended_by="submitted"), grade) == TrialStatus.failed
    assert 0 < grade.progress < 1


def test_canonical_solution_passes_hidden_tests_and_find_zero_has_none(humaneval_cases) -> None:
    case = humaneval_cases[0]
    canonical = case.solution_script.read_text().split("<<'NIGHTSHIFT_EOF'\n", 1)[1].rsplit("NIGHTSHIFT_EOF", 1)[0]
    grade = _grade_with(case, {"/workspace/solution.py": canonical})
    assert grade.all_passed and grade.hidden[0] == grade.hidden[1] > 0
    assert humaneval_cases[1].id == "humaneval-032" and humaneval_cases[1].hidden is None  # any root is right


def test_hidden_tests_are_a_pure_function_of_case_and_seed(humaneval_cases, tmp_path: Path) -> None:
    case = humaneval_cases[0]
    first, again = generate(case, 0, tmp_path / "a"), generate(case, 0, tmp_path / "b")
    other = generate(case, 1, tmp_path / "c")
    inputs = [json.loads((g.files / "inputs.json").read_text())["inputs"] for g in (first, again, other)]
    assert inputs[0] == inputs[1] != inputs[2]
    assert first.tests == again.tests
    source = HiddenTestSource()
    assert source.tests_for(case, 0) is source.tests_for(case, 0)  # generated once per process


class _FlipSecondRun:
    """A grader whose second oracle run disagrees with the first on one test: a flaky test."""

    def __init__(self) -> None:
        self.inner, self.calls = CaseGrader(), 0

    def grade(self, case, sandbox) -> GradeResult:
        self.calls += 1
        grade = self.inner.grade(case, sandbox)
        if self.calls == 2:
            grade.tests[0] = grade.tests[0].model_copy(update={"passed": not grade.tests[0].passed})
        return grade


def test_flaky_test_on_the_oracle_is_reported_and_then_excluded(tmp_path: Path) -> None:
    case = next(c for c in load_cases(BUILTIN) if len(c.fail_to_pass) >= 2 and not c.hidden)
    check = check_case(case, BubblewrapBackend(), _FlipSecondRun(), repeats=3)
    assert check.flaky == [case.fail_to_pass[0]] and check.ok
    assert flaky_names([GradeResult(tests=[TestOutcome(name="x", kind="hidden", passed=True, duration_s=0)]),
                        GradeResult(tests=[])]) == ["x"]
    # the validation record carries it; the loader marks the test excluded for every later grading
    import shutil

    suite = tmp_path / "suite"
    shutil.copytree(BUILTIN / case.id, suite / case.id)
    (suite / "suite.toml").write_text('name = "mini"\n')
    from nightshift.graders.validate import validate_cases

    record = validate_cases(load_cases(suite), BubblewrapBackend(), repeats=1).record
    record.cases[case.id].flaky = check.flaky
    write_record(suite, record)
    reloaded = load_cases(suite)[0]
    assert reloaded.excluded_tests == check.flaky
    grade = _grade_with(reloaded, {})
    assert grade.excluded == check.flaky and grade.f2p[1] == len(case.fail_to_pass) - 1


def test_runs_refuse_unvalidated_or_failing_suites_unless_allowed(tmp_path: Path) -> None:
    import shutil

    suite = tmp_path / "suite"
    shutil.copytree(BUILTIN / "py-bugfix-paginate", suite / "py-bugfix-paginate")
    (suite / "suite.toml").write_text('name = "mini"\n')
    cases = load_cases(suite)
    with pytest.raises(SuiteError, match="never validated|validate-suite"):
        require_validated(suite, cases, "case-grader/2")
    assert require_validated(suite, cases, "case-grader/2", allow=True)
    from nightshift.models import Case  # noqa: F401 - the record is keyed by case id and content hash
    from nightshift.suites.validation import CaseRecord

    write_record(suite, SuiteRecord(suite="mini", grader_version="case-grader/2", repeats=1, cases={
        "py-bugfix-paginate": CaseRecord(content_hash=cases[0].content_hash, ok=True)}))
    assert require_validated(suite, cases, "case-grader/2") == []
    (suite / "py-bugfix-paginate" / "instruction.md").write_text("changed\n")
    with pytest.raises(SuiteError, match="changed since it was validated"):
        require_validated(suite, load_cases(suite), "case-grader/2")
