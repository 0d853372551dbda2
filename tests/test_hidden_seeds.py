"""Hidden tests are new each night, pinned per run, recorded per row, keyed by input; runs refuse unvalidated suites."""

import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import duckdb
import pytest

from nightshift.contracts import SandboxSpec
from nightshift.errors import SuiteError
from nightshift.experiment.comparability import check_comparable
from nightshift.experiment.config import Experiment, Variant, load_experiment
from nightshift.experiment.hidden_seed import case_seed, night_of, night_seed
from nightshift.experiment.manifest import ModelPin, build_manifest
from nightshift.experiment.trials import expand_trials
from nightshift.graders import CaseGrader
from nightshift.graders.hidden import HiddenTestSource, input_key
from nightshift.models import TrialResult, TrialStatus
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from nightshift.suites.humaneval import import_humaneval
from nightshift.suites.validation import CaseRecord, SuiteRecord, run_validation_pins, write_record
from nightshift.tasks.results import write_parquet
from tests.conftest import BUILTIN

GENERATOR = '''import argparse, json, os, random, shutil
HERE = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, required=True)
parser.add_argument("--out", required=True)
options = parser.parse_args()
values = list(range(6))
random.Random(options.seed).shuffle(values)  # the same inputs, in an order that depends on the seed
inputs = [repr((v,)) for v in values]
os.makedirs(os.path.join(options.out, "files"), exist_ok=True)
shutil.copy(os.path.join(HERE, "runner.py"), os.path.join(options.out, "files"))
with open(os.path.join(options.out, "files", "inputs.json"), "w") as f:
    json.dump({"module": "double", "entry_point": "double", "per_input_s": 2, "inputs": inputs}, f)
with open(os.path.join(options.out, "hidden.json"), "w") as f:
    json.dump({"tests": [{"name": "stress", "command": "python3 -S /grader/hidden/runner.py",
                          "expected": [repr(2 * v) for v in values], "inputs": inputs}]}, f)
'''


def test_night_seed_is_new_each_night_and_fixed_for_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NIGHTSHIFT_NIGHT", raising=False)
    monday, tuesday = date(2026, 11, 30), date(2026, 12, 1)
    assert night_seed("e", night=monday) != night_seed("e", night=tuesday)
    assert night_seed("e", night=monday) == night_seed("e", night=monday) != night_seed("other", night=monday)
    assert night_seed("e", fixed=42, night=tuesday) == 42
    # a night runs noon to noon: started at 22:00 and resumed at 03:00, it is still one night
    assert night_of(datetime(2026, 11, 30, 22, tzinfo=UTC)) == night_of(datetime(2026, 12, 1, 3, tzinfo=UTC))
    monkeypatch.setenv("NIGHTSHIFT_NIGHT", "2026-12-24")
    assert night_of() == date(2026, 12, 24)
    assert case_seed(7, "a") != case_seed(7, "b") and case_seed(7, "a") != case_seed(8, "a")


def test_manifest_pins_the_hidden_seed_and_trials_follow_it(builtin_cases) -> None:
    models = {"a": ModelPin(model="sim-strong", version="1")}

    def manifest(hidden_seed):
        exp = Experiment(name="t", variants=[Variant(name="a", model="sim-strong")], seeds=[1],
                         hidden_seed=hidden_seed)
        return build_manifest(exp, builtin_cases[:2], models, "simulator", "rootfs:x", "g/1",
                              {"builtin": "validated"}), exp

    (one, exp), (two, _) = manifest(7), manifest(8)
    assert one.hidden_seed == 7 and two.hidden_seed == 8 and one.suite_validation == {"builtin": "validated"}
    ids = [[s.trial_id for s in expand_trials(m, builtin_cases[:2], exp.variants)] for m in (one, two)]
    assert not set(ids[0]) & set(ids[1])  # another night's hidden tests: another trial, never a cache hit
    assert {d.field for d in check_comparable(one, two)} >= {"hidden_seed"}  # noted, not refused


@pytest.fixture(scope="module")
def humaneval_case(tmp_path_factory):
    return load_cases(import_humaneval(tmp_path_factory.mktemp("he"), only=["HumanEval/0"]))[0]


def _grade(case, grader: CaseGrader, files: dict[str, str]):
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id=f"seed-{case.id}",
                                                     workspace_source=case.workspace_dir))
    try:
        for path, text in files.items():
            sandbox.write_file(path, text.encode())
        return grader.grade(case, sandbox)
    finally:
        sandbox.destroy()


def test_grade_records_the_case_seed_and_a_regrade_from_the_row_reproduces_its_tests(humaneval_case,
                                                                                     tmp_path: Path) -> None:
    canonical = humaneval_case.solution_script.read_text().split("<<'NIGHTSHIFT_EOF'\n", 1)[1].rsplit(
        "NIGHTSHIFT_EOF", 1)[0]
    grade = _grade(humaneval_case, CaseGrader(hidden_seed=123), {"/workspace/solution.py": canonical})
    assert grade.all_passed and grade.hidden_seed == case_seed(123, humaneval_case.id) and grade.hidden_digest
    row = TrialResult(trial_id="t", run_id="r", case_id=humaneval_case.id, suite="humaneval", domain="d",
                      split="public", variant="v", model="m", model_version="m", seed=1,
                      status=TrialStatus.resolved, score=1.0, hidden_seed=grade.hidden_seed,
                      hidden_digest=grade.hidden_digest)
    parquet = write_parquet([row], tmp_path / "r.parquet")
    seed, digest = duckdb.sql(f"SELECT hidden_seed, hidden_digest FROM '{parquet}'").fetchall()[0]
    assert seed == grade.hidden_seed  # an int64 column, not text
    regraded = HiddenTestSource().tests_for(humaneval_case, seed)  # a fresh source: generated again
    assert regraded.digest == digest
    tomorrow = HiddenTestSource().tests_for(humaneval_case, case_seed(124, humaneval_case.id))
    assert tomorrow.digest != digest and set(tomorrow.tests[0].inputs) != set(regraded.tests[0].inputs)


def _mini_suite(root: Path) -> Path:
    case = root / "double"
    for sub in ("workspace", "tests", "solution", "hidden"):
        (case / sub).mkdir(parents=True)
    (root / "suite.toml").write_text('name = "mini"\n')
    (case / "case.toml").write_text('id = "double"\ndomain = "d"\n[tests]\nfail_to_pass = ["one"]\n'
                                    '[hidden]\ngenerator = "hidden/generate.py"\n')
    (case / "instruction.md").write_text("double a number\n")
    (case / "workspace" / "double.py").write_text("def double(x):\n    return x + x if x != 3 else 0\n")
    (case / "tests" / "test_one.py").write_text("from double import double\nassert double(1) == 2\n")
    (case / "solution" / "solve.sh").write_text("true\n")
    (case / "hidden" / "generate.py").write_text(GENERATOR)
    shutil.copy(BUILTIN / "alg-edit-distance" / "hidden" / "runner.py", case / "hidden" / "runner.py")
    return root


def test_an_exclusion_follows_its_input_wherever_it_lands(tmp_path: Path) -> None:
    suite = _mini_suite(tmp_path / "mini")
    case = load_cases(suite)[0]
    flaky = f"stress[{input_key(repr((3,)))}]"
    write_record(suite, SuiteRecord(suite="mini", grader_version="g", repeats=1, cases={
        "double": CaseRecord(content_hash=case.content_hash, ok=True, flaky=[flaky])}))
    case = load_cases(suite)[0]
    positions = set()
    for night in (1, 2, 3):
        grade = _grade(case, CaseGrader(hidden_seed=night), {})
        hidden = [t for t in grade.tests if t.kind == "hidden"]
        positions.add(next(i for i, t in enumerate(hidden) if t.name == flaky))
        assert [t.name for t in hidden if t.excluded] == [flaky]  # the wrong answer for 3 is never scored
        assert grade.hidden == (5, 5) and grade.all_passed
    assert len(positions) > 1  # the input moved between nights; its exclusion moved with it


def _experiment(tmp_path: Path, allow: bool) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: v\nsuites: [suite]\nvariants: [{{name: a, model: sim-strong}}]\n"
                    f"allow_unvalidated: {str(allow).lower()}\n")
    return path


def test_a_run_refuses_an_unvalidated_or_stale_suite_and_names_the_fix(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(BUILTIN / "py-bugfix-paginate", suite / "py-bugfix-paginate")
    (suite / "suite.toml").write_text('name = "mini"\n')
    path = _experiment(tmp_path, allow=False)
    exp, cases = load_experiment(path), load_cases(suite)
    folders = [("suite", suite)]
    with pytest.raises(SuiteError) as refused:
        run_validation_pins(folders, cases, "g/1", exp.allow_unvalidated, path)
    # the fix names the folder as the shell running it sees it: this process runs elsewhere, so in full
    assert "never validated" in str(refused.value) and f"nightshift validate-suite {suite}`" in str(refused.value)
    assert f"allow_unvalidated: true in {path}" in str(refused.value)
    allowed = run_validation_pins(folders, cases, "g/1", load_experiment(_experiment(tmp_path, True)).allow_unvalidated,
                                  path)
    assert allowed["mini"].startswith("unvalidated, allowed by allow_unvalidated")
    write_record(suite, SuiteRecord(suite="mini", grader_version="g/1", repeats=1, cases={
        "py-bugfix-paginate": CaseRecord(content_hash=cases[0].content_hash, ok=True)}))
    assert run_validation_pins(folders, cases, "g/1", False, path) == {"mini": "validated"}
    (suite / "py-bugfix-paginate" / "instruction.md").write_text("changed\n")  # stale: content hash moved
    with pytest.raises(SuiteError, match="changed since it was validated"):
        run_validation_pins(folders, load_cases(suite), "g/1", False, path)


def test_the_nightly_flow_refuses_before_any_trial_starts(tmp_path: Path, prefect_server) -> None:
    from nightshift.flows.nightly_eval import nightly_eval

    suite = tmp_path / "suite"
    shutil.copytree(BUILTIN / "py-bugfix-paginate", suite / "py-bugfix-paginate")
    (suite / "suite.toml").write_text('name = "mini"\n')
    path = _experiment(tmp_path, allow=False)
    with pytest.raises(SuiteError, match="allow_unvalidated: true"):
        nightly_eval(experiment_file=str(path))
    assert not (tmp_path / "runs").exists()  # no run folder, no manifest, no trial
