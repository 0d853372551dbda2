"""The CLI ends every error nightshift raises with its message and its family's exit code, never a traceback; a
bug (any other exception) is one line too, with the traceback written to .nightshift/cli-error.log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nightshift import errors
from nightshift.cli import main
from nightshift.experiment.config import ExperimentError
from nightshift.flows.run_lock import RunLocked
from nightshift.tasks.disk_space import DiskFull


@pytest.mark.parametrize(("error", "code"), [
    (ExperimentError("exp.yaml: field 'seeds': remove the repeats"), 2),
    (errors.SuiteError("suite.toml: field 'name': add it"), 2),
    (DiskFull("the disk is full; free space and run again"), 3),
    (RunLocked("being run by pid 1"), 3),
    (errors.SandboxError("bwrap is not installed"), 4),
    (errors.GatewayError("the endpoint failed after 6 attempts"), 4),
    (errors.OrchestrationError("the Prefect server did not start"), 4),
])
def test_each_family_has_its_exit_code_and_one_message(monkeypatch, capsys, tmp_path, error, code) -> None:
    import nightshift.cli.compare as compare

    def fail(_args):
        raise error

    monkeypatch.setattr(compare, "compare_command", fail)
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "anything"]) == code
    out = capsys.readouterr().out
    assert str(error).split(";")[0] in " ".join(out.split()) and "Traceback" not in out
    if code != 2:  # a condition, not an input: its name is said too
        assert type(error).__name__ in out


def test_every_family_is_a_nightshift_error_with_a_code() -> None:
    for family in errors.FAMILIES:
        assert issubclass(family, errors.NightshiftError) and family.exit_code in (2, 3, 4)


def test_a_bug_is_one_line_and_its_traceback_goes_to_the_log(tmp_path: Path) -> None:
    """A real process: the console script's module, an exception nightshift did not mean to raise."""
    code = ("import sys, nightshift.cli.compare as c\n"
            "def boom(_a): raise KeyError('surprise')\n"
            "c.compare_command = boom\n"
            "from nightshift.cli import main\n"
            "sys.exit(main(['compare', 'x']))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "NIGHTSHIFT_HOME": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "internal error" in done.stdout and "KeyError" in done.stdout and "Traceback" not in done.stdout + \
        done.stderr
    log = next(tmp_path.rglob("cli-error.log"))
    assert "Traceback" in log.read_text() and "surprise" in log.read_text()


def test_a_backend_that_cannot_start_is_one_line_naming_it(tmp_path: Path, capsys, monkeypatch) -> None:
    """A plugin backend whose constructor fails any way: a SandboxError naming the backend and image (exit 4)."""
    (tmp_path / "broken_backend.py").write_text(
        "class Backend:\n    name = 'broken'\n    def __init__(self, image):\n        raise OSError('no /dev/kvm')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["validate-suite", "builtin", "--cases", "sh-csv-column-sum", "--repeats", "1", "--no-record",
                 "--backend", "broken_backend:Backend"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 4, out
    assert "SandboxError: sandbox backend 'broken_backend:Backend' could not start on image 'host'" in out
    assert "OSError: no /dev/kvm" in out and "Traceback" not in out
