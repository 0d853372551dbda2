"""Metrics: resolved by name with their settings checked before any trial, scored per trial without ever
losing the row, pinned in the manifest (a changed metric is a new trial id), and the shipped ones real."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from nightshift.contracts import SandboxSpec
from nightshift.errors import SuiteError
from nightshift.experiment.config import ExperimentError, load_experiment
from nightshift.experiment.manifest import ModelPin, build_manifest
from nightshift.experiment.trials import expand_trials
from nightshift.graders import CaseGrader
from nightshift.graders.metric import MetricSet, host_files, metric_sets, workspace_files
from nightshift.metrics import ActiveMetric, TrialFacts
from nightshift.models import MetricSpec
from nightshift.preflight import check_experiment
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from tests.conftest import BUILTIN

CASE = next(c for c in load_cases(BUILTIN) if c.id == "py-bugfix-slugify")


def write(tmp_path: Path, metrics: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: x\nvariants: [{{name: a, model: m}}]\nmetrics: {metrics}\n")
    return path


@pytest.mark.parametrize(("metrics", "field", "fix"), [
    ("[no_such_metric]", "metrics.0.use",
     "installed: files_outside_allowed, progress, resolved, speedup, time_to_pass"),
    ("[time_to_pass, {use: files_outside_allowed}]", "metrics.1.settings.allowed", "required: add it"),
    ("[{use: files_outside_allowed, settings: {allowed: [src/*], ignroe: []}}]", "metrics.0.settings.ignroe",
     "did you mean 'ignore'?"),
    ("[{use: time_to_pass, settngs: {}}]", "metrics.0.settngs", "did you mean 'settings'?"),
    ("[{use: time_to_pass, name: Fast-Pass}]", "metrics.0.name", "should match pattern"),
    ("[{use: time_to_pass, name: tokens}]", "metrics.0.name", "give it a name"),
    ("[time_to_pass, time_to_pass]", "metrics.1", "give one of them another 'name'"),
    ("['no_such_module_here:Metric']", "metrics.0.use", "cannot import module 'no_such_module_here'"),
    ("['nightshift.graders.builtin_metrics:Nothing']", "metrics.0.use", "has no attribute 'Nothing'"),
])
def test_bad_metric_entries_name_the_file_the_field_and_the_fix(tmp_path: Path, metrics: str, field: str,
                                                                fix: str) -> None:
    path = write(tmp_path, metrics)
    with pytest.raises(ExperimentError) as err:
        check_experiment(path)
    message = str(err.value)
    assert str(path) in message and f"'{field}'" in message and fix in message, message


def _suite(tmp_path: Path, metrics: str) -> Path:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "suite.toml").write_text(f'name = "mine"\n{metrics}\n')
    return suite


@pytest.mark.parametrize(("metrics", "field", "fix"), [
    ('metrics = "time_to_pass"', "metrics", "expected a list"),
    ('[[metrics]]\nuse = "nope"', "metrics.0.use", "no plugin named 'nope'"),
    ('[[metrics]]\nuse = "files_outside_allowed"\nsettings = { allowed = "src/*" }', "metrics.0.settings.allowed",
     "valid list"),
    ('[[metrics]]\nuse = "time_to_pass"\nname = 3', "metrics.0.name", "valid string"),
])
def test_bad_suite_metrics_name_suite_toml_and_the_field(tmp_path: Path, metrics: str, field: str, fix: str) -> None:
    suite = _suite(tmp_path, metrics)
    with pytest.raises(SuiteError) as err:
        load_cases(suite)
    message = str(err.value)
    assert str(suite / "suite.toml") in message and f"'{field}'" in message and fix in message, message


def test_suite_and_experiment_metrics_combine_and_the_experiment_wins(tmp_path: Path) -> None:
    from nightshift.suites.loader import suite_metrics

    meta = tmp_path / "suite.toml"
    case = CASE.model_copy(update={"suite": "mine", "metrics": suite_metrics(meta, [
        {"use": "files_outside_allowed", "settings": {"allowed": ["src/*"]}}, "time_to_pass"])})
    experiment = [MetricSpec.model_validate({"use": "files_outside_allowed", "settings": {"allowed": ["*"]}})]
    chosen = metric_sets([case], experiment)["mine"]
    assert [m.name for m in chosen.metrics] == ["resolved", "progress", "time_to_pass", "files_outside_allowed"]
    assert chosen.metrics[-1].identity["settings"]["allowed"] == ["*"]
    assert chosen.columns()["time_to_pass"] == {"unit": "s", "higher_is_better": "false"}


def facts(**kw) -> TrialFacts:
    return TrialFacts(case=CASE, sandbox=None, grade=None, **kw)


def test_a_failing_or_odd_metric_leaves_no_value_and_says_why() -> None:
    chosen = MetricSet.build()
    for name, call in (("broken", lambda trial: 1 / 0), ("nan", lambda trial: math.nan),
                       ("flag", lambda trial: True), ("text", lambda trial: "yes")):
        chosen.metrics.append(ActiveMetric(name, call, {"name": name}))
    scores, messages = chosen.score(facts(ended_by="step_limit"))
    assert scores == {"resolved": 0.0, "progress": 0.0, "broken": None, "nan": None, "flag": 1.0, "text": None}
    assert messages["broken"].startswith("metric failed: ZeroDivisionError")
    assert "not a finite number" in messages["nan"] and "return a MetricResult" in messages["text"]
    assert messages["resolved"] == "ended by step_limit"


def test_time_to_pass_is_the_agent_time_of_a_passing_trial_only() -> None:
    from nightshift.models import GradeResult, TestOutcome

    passing = GradeResult(tests=[TestOutcome(name="a", kind="fail_to_pass", passed=True, duration_s=0.1)])
    chosen = MetricSet.build([MetricSpec(use="time_to_pass")])
    assert chosen.score(TrialFacts(case=CASE, sandbox=None, grade=passing, agent_s=12.3456))[0]["time_to_pass"] \
        == 12.346
    stopped = chosen.score(TrialFacts(case=CASE, sandbox=None, grade=passing, ended_by="timeout", agent_s=5))
    assert stopped[0]["time_to_pass"] is None and stopped[0]["resolved"] == 0.0


def test_files_outside_allowed_sees_what_the_agent_changed_in_a_real_sandbox() -> None:
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id="t-files",
                                                     workspace_source=CASE.workspace_dir))
    try:
        before = host_files(CASE.workspace_dir, CASE.content_hash)
        allowed_file = next(p for p in before if p.endswith(".py"))
        other = next(p for p in before if p != allowed_file)
        script = (f"echo '# edit' >> {allowed_file} && rm {other} && mkdir -p notes/__pycache__ && "
                  "echo x > notes/plan.txt && echo y > notes/__pycache__/m.pyc && "
                  "printf z > \"$(printf 'odd\\nname')\"")
        assert sandbox.exec(script, timeout_s=30).exit_code == 0
        after = workspace_files(sandbox)
        assert "odd\nname" in after and ".nightshift-file-listing" not in after
        chosen = MetricSet.build([MetricSpec(use="files_outside_allowed", settings={"allowed": [allowed_file]})])
        assert chosen.needs_files
        grade = CaseGrader().grade(CASE, sandbox)  # tests run after the listing: their caches never count
        trial = TrialFacts(case=CASE, sandbox=sandbox, grade=grade, files_before=before, files_after=after)
        assert trial.changed_files() == sorted([allowed_file, other, "notes/plan.txt", "notes/__pycache__/m.pyc",
                                                "odd\nname"])
        scores, messages = chosen.score(trial)
        assert scores["files_outside_allowed"] == 3.0  # deleted, added, odd name; the allowed edit and .pyc not
        assert other in messages["files_outside_allowed"] and "notes/plan.txt" in messages["files_outside_allowed"]
    finally:
        sandbox.destroy()


def test_metrics_are_pinned_and_a_changed_setting_is_a_new_trial_id(tmp_path: Path) -> None:
    path = write(tmp_path, "[{use: files_outside_allowed, settings: {allowed: ['*.py']}}]")
    exp = load_experiment(path)
    cases = [CASE]

    def ids(entries: list[MetricSpec]) -> tuple[list[str], dict]:
        pins = {s: m.identities() for s, m in metric_sets(cases, entries).items()}
        manifest = build_manifest(exp, cases, {"a": ModelPin(model="m", version="m1")}, "sim", "id", "g",
                                  metrics=pins)
        return [t.trial_id for t in expand_trials(manifest, cases, exp.variants)], manifest.metrics

    first, pinned = ids(exp.metrics)
    # the built-in suite's own metric (speedup, for its perf cases) comes before the experiment's
    assert [m["name"] for m in pinned["builtin"]] == ["resolved", "progress", "speedup", "files_outside_allowed"]
    assert pinned["builtin"][3]["source"] == "builtin" and pinned["builtin"][3]["version"].startswith("0.1.0+sha256:")
    assert ids(exp.metrics)[0] == first
    changed = [MetricSpec(use="files_outside_allowed", settings={"allowed": ["src/*"]})]
    assert set(ids(changed)[0]).isdisjoint(first)
