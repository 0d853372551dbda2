"""Run the simulator as a child process for the length of a ``with`` block.

``running_simulator`` starts ``python -m simulator`` with the same interpreter, waits for it to write
its base URL, yields that URL and stops the child on exit (SIGTERM, then SIGKILL after 5 s);
``running_simulators`` does the same for several at once (they start in parallel). The child
asks the kernel to SIGKILL it when its parent dies (PR_SET_PDEATHSIG), so a killed parent leaves no
orphan server behind. Note that Linux sends that signal when the *thread* that started the child
exits, so enter the context in a thread that outlives the block (any thread does, while inside it).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from nightshift.scratch import scratch
from nightshift.simulator.config import SimulatorConfig

START_TIMEOUT_S = 30.0
STOP_GRACE_S = 5.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent_pid: int) -> None:
    """preexec_fn: ask for SIGKILL when the parent dies; exit at once if it already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)


def simulator_command(config: SimulatorConfig, suite_dirs: Sequence[Path], log_path: Path | None,
                      ready_file: Path) -> list[str]:
    """The command line that runs a simulator with ``config`` on a free port of 127.0.0.1."""
    cmd = [sys.executable, "-m", "nightshift.simulator", "--host", "127.0.0.1", "--port", "0",
           "--config-json", config.model_dump_json(), "--ready-file", str(ready_file)]
    for suite in suite_dirs:
        cmd += ["--suite", str(Path(suite).resolve())]
    if log_path is not None:
        cmd += ["--log", str(Path(log_path).resolve())]
    return cmd


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return text[-limit:].strip()


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _start(config: SimulatorConfig, suite_dirs: Sequence[Path], log_path: Path | None,
           tmp_dir: Path) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    parent = os.getpid()
    with (tmp_dir / "stderr.log").open("wb") as stderr:
        return subprocess.Popen(
            simulator_command(config, suite_dirs, log_path, tmp_dir / "ready"),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=env,
            preexec_fn=lambda: _die_with_parent(parent),
        )


def _wait_ready(proc: subprocess.Popen, tmp_dir: Path, deadline: float) -> str:
    ready_file, stderr_path = tmp_dir / "ready", tmp_dir / "stderr.log"
    while not ready_file.is_file():
        if proc.poll() is not None:
            raise RuntimeError(f"the model simulator exited with code {proc.returncode} before "
                               f"it was ready; its stderr ends with:\n{_tail(stderr_path)}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the model simulator was not ready after {START_TIMEOUT_S:.0f} s; "
                               f"its stderr ends with:\n{_tail(stderr_path)}")
        time.sleep(0.02)
    return ready_file.read_text().strip()


@contextlib.contextmanager
def running_simulators(specs: Mapping[str, tuple[SimulatorConfig, Sequence[Path], Path | None]]
                       ) -> Iterator[dict[str, str]]:
    """Several simulators started at once: ``{name: (config, suite_dirs, log_path)}`` → ``{name: base URL}``."""
    with scratch("sim") as tmp:  # under the state folder; reaped at the next start if this process is killed
        procs: dict[str, tuple[subprocess.Popen, Path]] = {}
        try:
            for name, (config, suite_dirs, log_path) in specs.items():
                tmp_dir = Path(tmp) / str(len(procs))
                tmp_dir.mkdir()
                procs[name] = (_start(config, suite_dirs, log_path, tmp_dir), tmp_dir)
            deadline = time.monotonic() + START_TIMEOUT_S
            yield {name: _wait_ready(proc, tmp_dir, deadline) for name, (proc, tmp_dir) in procs.items()}
        finally:
            for proc, _ in procs.values():
                if proc.poll() is None:
                    proc.terminate()
            for proc, _ in procs.values():
                _stop(proc)


@contextlib.contextmanager
def running_simulator(config: SimulatorConfig, suite_dirs: Sequence[Path],
                      log_path: Path | None = None) -> Iterator[str]:
    """Start a simulator subprocess, yield its base URL (``http://127.0.0.1:PORT/v1``), stop it after.

    Raises RuntimeError, with the tail of the child's stderr, when it exits or is not ready within 30 s.
    """
    with running_simulators({"one": (config, suite_dirs, log_path)}) as urls:
        yield urls["one"]
