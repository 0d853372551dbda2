"""`nightshift init`: the starter project it writes, what it refuses to overwrite, and its prefect.yaml."""

from __future__ import annotations

from pathlib import Path

import yaml

from nightshift.cli import main
from nightshift.preflight import check_experiment
from nightshift.suites import load_cases
from tests.conftest import REPO


def test_init_writes_a_project_whose_experiment_loads(tmp_path: Path) -> None:
    assert main(["init", str(tmp_path / "team-evals")]) == 0
    checked = check_experiment(tmp_path / "team-evals" / "experiments" / "default.yaml")
    assert checked.exp.output_dir == (tmp_path / "team-evals" / "runs").resolve()  # relative to the file, not cwd
    (suite,) = checked.suite_dirs
    assert suite == (tmp_path / "team-evals" / "suites" / "starter").resolve()
    (case,) = load_cases(suite)
    assert case.id == "fix-median" and case.fail_to_pass and case.pass_to_pass
    assert (suite / "fix-median" / "solution" / "solve.sh").stat().st_mode & 0o111
    assert (tmp_path / "team-evals" / ".gitignore").read_text().count("runs/") == 1


def test_init_refuses_to_overwrite_and_names_the_files(tmp_path: Path, capsys) -> None:
    (tmp_path / "prefect.yaml").write_text("# the team's own\n")
    assert main(["init", str(tmp_path)]) == 2
    said = capsys.readouterr().out
    assert "prefect.yaml" in said and "--force" in said
    assert (tmp_path / "prefect.yaml").read_text() == "# the team's own\n"
    assert not (tmp_path / "experiments").exists()  # nothing is written when anything is refused
    assert main(["init", str(tmp_path), "--force"]) == 0
    assert "nightshift.flows.nightly_eval.nightly_eval" in (tmp_path / "prefect.yaml").read_text()


def test_init_keeps_an_existing_gitignore_and_adds_its_lines(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("node_modules/\nruns/")
    assert main(["init", str(tmp_path)]) == 0
    lines = (tmp_path / ".gitignore").read_text().splitlines()
    assert lines[:2] == ["node_modules/", "runs/"] and lines.count("runs/") == 1 and ".nightshift/" in lines


def test_the_starter_deployments_match_the_checkout_s(tmp_path: Path) -> None:
    main(["init", str(tmp_path / "p")])
    ours = {d["name"]: d for d in yaml.safe_load((REPO / "prefect.yaml").read_text())["deployments"]}
    theirs = {d["name"]: d for d in yaml.safe_load((tmp_path / "p" / "prefect.yaml").read_text())["deployments"]}
    assert set(theirs) == set(ours)
    for name, d in theirs.items():
        for key in ("entrypoint", "parameters", "work_pool", "schedules", "concurrency_limit"):
            assert d.get(key) == ours[name].get(key), (name, key)
