"""Run a project's own tests in its image and sort them: stable ones become PASS_TO_PASS, the rest are listed.

The tests run exactly as a grader runs them (the case's tests/run_tests.sh, junit XML report), in one
container with no network over a scratch copy of the workspace, so a mutation can be tried by editing a
file on the host and running again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import docker
from docker.types import Mount

from nightshift.sandbox.docker_exec import TRIAL_USER, run_captured
from nightshift.suites.junit import JunitError, parse_junit
from nightshift.suites.pypi_tasks.download import Refused

REPORT = "/tmp/nightshift-import-junit.xml"
NETWORK_WORDS = ("socket.gaierror", "ConnectionError", "URLError", "Network is unreachable",
                 "Name or service not known", "Temporary failure in name resolution",
                 "ConnectionRefusedError", "NewConnectionError")


@dataclass
class Sorted:
    stable: list[str]
    flaky: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    network: list[str] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)
    seconds: float = 0.0  # the tests' own time, summed over runs
    wall_s: float = 0.0  # the slowest whole run: a mutant's run may take a few times this, then it is hung


class TestBench:
    """A running container of a project image with ``workspace`` (a host folder) at /workspace."""

    def __init__(self, api_client, image_id: str, workspace: Path, tests_dir: Path):
        self.client, self.workspace = api_client, workspace
        for path in [workspace, *workspace.rglob("*")]:  # the sandbox user owns nothing on the host
            os.chmod(path, 0o777 if path.is_dir() else 0o666)
        self.container = api_client.containers.run(
            image_id, command=["sleep", "infinity"], init=True, detach=True, network_disabled=True,
            name=f"nsb-pypi-tests-{uuid.uuid4().hex[:8]}",
            mounts=[Mount("/workspace", str(workspace), type="bind"),
                    Mount("/grader/tests", str(tests_dir), type="bind", read_only=True)])

    def close(self) -> None:
        with contextlib.suppress(docker.errors.NotFound):
            self.container.remove(force=True)

    def run(self, timeout_s: int) -> tuple[dict[str, tuple[bool, float, str, bool]], int, str]:
        """(test -> (passed, seconds, failure text), exit code, output) of one run of run_tests.sh."""
        command = ["timeout", "-k", "5", str(timeout_s), "bash", "/grader/tests/run_tests.sh"]
        code, output = run_captured(self.client.api, self.container.id, command, TRIAL_USER,
                                    {"NIGHTSHIFT_JUNIT": REPORT, "HOME": "/tmp"})
        if code == 124:
            raise Refused(f"its test suite ran past {timeout_s} s offline")
        read, xml = run_captured(self.client.api, self.container.id, ["cat", REPORT], "0:0", {}, cap_bytes=64 << 20)
        if read != 0:
            return {}, code, output
        try:
            return parse_junit(xml), code, output
        except JunitError as exc:
            raise Refused(f"pytest wrote an unreadable junit report: {exc}") from None


def sort_tests(bench: TestBench, runs: int, test_budget_s: float, timeout_s: int) -> Sorted:
    """Run the suite ``runs`` times; stable = passed every time within ``test_budget_s`` seconds each."""
    seen: dict[str, list[tuple[bool, float, str, bool]]] = {}
    total = 0.0
    wall = 0.0
    for _ in range(runs):
        started = time.monotonic()
        results, code, output = bench.run(timeout_s)
        wall = max(wall, time.monotonic() - started)
        if not results:
            tail = " | ".join(line for line in output.splitlines()[-4:] if line.strip())
            raise Refused(f"pytest reported no tests (exit {code}): {tail[:400]}")
        for name, result in results.items():
            seen.setdefault(name, []).append(result)
        total += sum(r[1] for r in results.values())
    out = Sorted(stable=[], seconds=total, wall_s=wall)
    for name, history in sorted(seen.items()):
        passes = sum(r[0] for r in history)
        if passes == runs and len(history) == runs:
            (out.slow if max(r[1] for r in history) > test_budget_s else out.stable).append(name)
        elif any(word in r[2] for r in history for word in NETWORK_WORDS):
            out.network.append(name)
        elif passes:
            out.flaky.append(name)
        else:
            out.failing.append(name)
    if len(out.stable) < 3:
        raise Refused(f"only {len(out.stable)} of its {len(seen)} tests pass every time offline in the image "
                      f"({len(out.failing)} fail, {len(out.network)} need the network, {len(out.flaky)} flaky, "
                      f"{len(out.slow)} slow)")
    return out


def scratch_copy(source: Path, into: Path) -> Path:
    shutil.rmtree(into, ignore_errors=True)
    shutil.copytree(source, into, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".git"))
    return into
