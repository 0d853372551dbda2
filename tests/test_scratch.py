"""Nothing left in the system's temp folder: scratch lives under the state folder, is removed on exit, and
what a killed process left is reaped at the next start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from nightshift.scratch import LEGACY_PREFIXES, new_scratch, reap_scratch
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator


def temp_leftovers() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).iterdir() if p.name.startswith(LEGACY_PREFIXES)}


def private_tmp(tmp_path: Path, monkeypatch) -> None:
    """The system temp folder of this test and its children: on a shared machine others write to /tmp."""
    own = tmp_path / "system-tmp"
    own.mkdir()
    monkeypatch.setenv("TMPDIR", str(own))
    monkeypatch.setattr(tempfile, "tempdir", str(own))


def test_scratch_of_a_killed_process_is_reaped(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NIGHTSHIFT_SCRATCH", str(tmp_path / "scratch"))
    code = ("from nightshift.scratch import new_scratch; import time; p = new_scratch('hidden'); "
            "(p / 'secret').write_text('x'); print(p, flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env={**os.environ})
    left = Path(child.stdout.readline().strip())
    mine = new_scratch("hidden")
    assert reap_scratch() == 0 and left.is_dir()  # its owner is alive
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert reap_scratch() == 1
    assert not left.exists() and mine.is_dir() and oct(mine.stat().st_mode & 0o777) == "0o700"


def test_simulator_and_hidden_tests_leave_nothing_in_tmp(tmp_path: Path, monkeypatch, builtin_cases) -> None:
    monkeypatch.setenv("NIGHTSHIFT_SCRATCH", str(tmp_path / "scratch"))
    private_tmp(tmp_path, monkeypatch)
    with running_simulator(SimulatorConfig(latency_ms=1), []):
        assert len(list((tmp_path / "scratch").iterdir())) == 1
    assert list((tmp_path / "scratch").iterdir()) == []
    from nightshift.graders.hidden import HiddenTestSource

    case = next(c for c in builtin_cases if c.hidden)
    generated = HiddenTestSource().tests_for(case, 1)
    assert generated.files.is_relative_to(tmp_path / "scratch")
    assert temp_leftovers() == set()
