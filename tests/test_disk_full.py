"""A full disk is a clear stop: checked before the night, and on ENOSPC mid-night one message naming the
folder, what was written and how to resume; no temporary or empty files left; the resume completes.
Runs on a small tmpfs this test mounts and unmounts."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from nightshift.tasks.disk_space import DiskFull, check_free_space
from tests.host_support import unavailable


@pytest.fixture
def small_disk(tmp_path: Path):
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m,mode=0755", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        unavailable("tmpfs", f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_preflight_refuses_a_night_the_disk_cannot_hold(small_disk: Path) -> None:
    with pytest.raises(DiskFull) as refused:
        check_free_space(small_disk / "run", trials_left=5000, per_trial=64 * 1024, total=5000)
    said = str(refused.value)
    assert str(small_disk) in said and "5000 of 5000 trials" in said and "nothing was run" in said
    assert check_free_space(small_disk / "run", trials_left=10, per_trial=64 * 1024, total=10) > 0


def experiment(tmp_path: Path, out: Path) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"""
name: full
cases: [sh-csv-column-sum, py-bugfix-slugify]
variants:
  - {{name: strong, model: sim-strong}}
  - {{name: weak, model: sim-weak}}
seeds: [1, 2, 3, 4]
concurrency: 2
infra_retries: 0
model: {{simulator: {{latency_ms: 5}}}}
output_dir: {out}
""")
    return path


def fill(disk: Path) -> Path:
    ballast = disk / "ballast"
    with ballast.open("wb", buffering=0) as f:  # unbuffered: every ENOSPC is raised here, none at close
        for chunk in (1 << 20, 4096):  # then the last pages too
            try:
                while True:
                    f.write(b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return ballast


def leftovers(out: Path) -> list[Path]:
    temporary = [p for p in out.rglob(".*.tmp")]
    empty_cache = [p for p in (out / ".trial-cache").glob("*") if p.is_file() and p.stat().st_size == 0]
    return temporary + empty_cache


@pytest.mark.timeout(900)
def test_disk_full_mid_night_then_resume(tmp_path: Path, small_disk: Path, prefect_server) -> None:
    out = small_disk / "out"
    exp = experiment(tmp_path, out)
    env = {**os.environ, "NIGHTSHIFT_CODE_VERSION": "disk-full-test"}
    night = subprocess.Popen([sys.executable, "-m", "nightshift.cli", "run", str(exp)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 300
        while len(list(out.glob("full-*/results/*.json"))) < 3 and time.monotonic() < deadline:
            assert night.poll() is None, night.stdout.read()
            time.sleep(0.1)
        ballast = fill(small_disk)
        said = night.communicate(timeout=600)[0]
    finally:
        if night.poll() is None:
            night.kill()
            night.wait()
    run_dir = next(out.glob("full-*"))
    assert night.returncode == 3, said[-3000:]
    flat = " ".join(said.split())
    assert "DiskFull: no space left on the disk holding" in flat and "run the same command again" in flat
    assert re.search(r"\b\d+ of 16 trial rows are written in \S+/results and kept", flat), flat[-2000:]
    assert "pyarrow" not in said  # the night stopped at the first full write, not in the Parquet writer
    assert leftovers(out) == []
    assert not (run_dir / "results.parquet").exists()

    ballast.unlink()
    again = subprocess.run([sys.executable, "-m", "nightshift.cli", "run", str(exp)], env=env,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    parquet = run_dir / "results.parquet"
    total, distinct = duckdb.sql(f"SELECT count(*), count(DISTINCT trial_id) FROM '{parquet}'").fetchall()[0]
    assert total == distinct == 16
    assert leftovers(out) == []
