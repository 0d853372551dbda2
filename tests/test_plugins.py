"""Registries for the other extension points: `nightshift plugins` lists all four kinds with versions; a suite
importer and a sandbox backend from the user's own module work with no change to nightshift; unknown names
are refused with the installed ones and the fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from nightshift.cli import main
from nightshift.experiment.config import ExperimentError
from nightshift.preflight import check_experiment
from nightshift.suites import load_cases
from tests.conftest import BUILTIN


def test_plugins_lists_every_kind_with_source_and_version(capsys) -> None:
    from nightshift.cli.plugins import plugin_rows

    rows = plugin_rows()
    kinds = {kind: {name for k, name, _, _ in rows if k == kind} for kind in ("harnesses", "metrics", "importers",
                                                                              "sandboxes")}
    assert kinds == {"harnesses": {"reference"},
                     "metrics": {"resolved", "progress", "time_to_pass", "files_outside_allowed", "speedup"},
                     "importers": {"humaneval", "harbor", "swebench", "pypi"}, "sandboxes": {"bubblewrap", "docker"}}
    assert all(source == "builtin" and version.startswith("0.1.0+sha256:") for _, _, source, version in rows
               if source == "builtin")
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    for name in ("reference", "files_outside_allowed", "swebench", "bubblewrap"):
        assert name in out


def test_plugins_fails_when_an_installed_plugin_does_not_load(monkeypatch, capsys) -> None:
    from importlib import metadata

    real = metadata.entry_points
    broken = metadata.EntryPoint(name="stale", value="team_metrics_uninstalled:metric", group="nightshift.metrics")

    def entry_points(**kw):
        found = list(real(**kw))
        return [*found, broken] if kw.get("group") == "nightshift.metrics" else found

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    assert main(["plugins"]) == 1
    out = capsys.readouterr().out
    assert "metrics 'stale'" in out and "team_metrics_uninstalled" in out and "do not load" in out


@pytest.fixture
def my_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's project folder with its own importer and backend module, importable as module:attr."""
    (tmp_path / "team_plugins.py").write_text(textwrap.dedent(f"""
        import shutil
        from pathlib import Path

        from nightshift.sandbox.bubblewrap import BubblewrapBackend
        from nightshift.errors import SuiteError

        BUILTIN = Path({str(BUILTIN)!r})
        CREATED = []


        def copy_two_cases(source, out, name):
            '''A team's own suite format: here, a list of built-in case ids in a text file.'''
            ids = Path(source).read_text().split()
            if not ids:
                raise SuiteError(f"{{source}}: no case ids in it")
            out.mkdir(parents=True)
            (out / "suite.toml").write_text(f'name = "{{name}}"\\nmetrics = ["time_to_pass"]\\n')
            for case_id in ids:
                shutil.copytree(BUILTIN / case_id, out / case_id)


        class CountingBackend(BubblewrapBackend):
            '''bubblewrap, counting the sandboxes it makes (a stand-in for a team's own backend).'''

            name = "counting"

            def create(self, spec):
                CREATED.append(spec.trial_id)
                return super().create(spec)
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_plugin_importer_needs_no_change_to_nightshift(my_project: Path, capsys) -> None:
    (my_project / "ids.txt").write_text("py-bugfix-slugify sh-csv-column-sum\n")
    assert main(["import-suite", "team_plugins:copy_two_cases", "ids.txt", "out", "--name", "mine"]) == 0
    cases = load_cases(my_project / "out")
    assert [c.id for c in cases] == ["py-bugfix-slugify", "sh-csv-column-sum"] and cases[0].suite == "mine"
    assert [m.use for m in cases[0].metrics] == ["time_to_pass"]
    (my_project / "empty.txt").write_text("")
    assert main(["import-suite", "team_plugins:copy_two_cases", "empty.txt", "out2"]) == 2
    assert "empty.txt: no case ids in it" in capsys.readouterr().out


def test_unknown_importer_and_missing_source_are_refused(tmp_path: Path, capsys) -> None:
    assert main(["import-suite", "csv", "x", str(tmp_path / "out")]) == 2
    out = capsys.readouterr().out
    assert "no plugin named 'csv'" in out and "installed: harbor, humaneval, pypi, swebench" in out
    assert main(["import-suite", "swebench", str(tmp_path / "out")]) == 2
    assert "give the source (a JSONL file of instances)" in capsys.readouterr().out
    assert not (tmp_path / "out").exists()


def _experiment(folder: Path, backend: str) -> Path:
    path = folder / "exp.yaml"
    path.write_text(f"name: x\nvariants: [{{name: a, model: m}}]\nsandbox: {{backend: '{backend}'}}\n")
    return path


def test_a_plugin_backend_validates_and_an_unknown_one_lists_the_installed(my_project: Path) -> None:
    assert check_experiment(_experiment(my_project, "team_plugins:CountingBackend")).exp.sandbox.backend == \
        "team_plugins:CountingBackend"
    with pytest.raises(ExperimentError) as err:
        check_experiment(_experiment(my_project, "vm"))
    message = str(err.value)
    assert "field 'sandbox.backend'" in message and "installed: 'bubblewrap', 'docker'" in message
    assert "nightshift.sandboxes" in message
    with pytest.raises(ExperimentError, match="cannot import module 'team_plugin'"):
        check_experiment(_experiment(my_project, "team_plugin:CountingBackend"))


def test_validate_suite_runs_on_the_experiments_backend(my_project: Path, capsys) -> None:
    import team_plugins  # the user's module, as the experiment names it

    exp = _experiment(my_project, "team_plugins:CountingBackend")
    args = ["validate-suite", "builtin", "--cases", "sh-csv-column-sum", "--repeats", "1", "--no-record"]
    assert main([*args, "--experiment", str(exp)]) == 0
    assert "on team_plugins:CountingBackend (host)" in capsys.readouterr().out
    assert len(team_plugins.CREATED) >= 2  # the oracle and the untouched workspace, in its sandboxes
    before = len(team_plugins.CREATED)
    assert main([*args, "--experiment", str(exp), "--backend", "bubblewrap"]) == 0  # the flag wins
    assert len(team_plugins.CREATED) == before
    assert main([*args, "--backend", "nope"]) == 2
    assert "nightshift.sandboxes: no plugin named 'nope'; installed: bubblewrap, docker" in capsys.readouterr().out
