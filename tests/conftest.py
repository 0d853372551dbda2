"""Shared test setup: quiet, isolated Prefect state and sandbox root; a Prefect server when a test needs one."""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path

import pytest

_STATE = Path(tempfile.mkdtemp(prefix="nightshift-tests-"))
_STATE.chmod(0o755)  # the sandbox uid must be able to reach workspaces under it
os.environ.update({
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_HOME": str(_STATE / "prefect"),
    "PREFECT_LOGGING_LEVEL": "WARNING",
    "NIGHTSHIFT_SANDBOX_ROOT": str(_STATE / "sandboxes"),
})
os.environ.pop("PREFECT_API_URL", None)

REPO = Path(__file__).resolve().parent.parent
BUILTIN = REPO / "suites" / "builtin"


# The longest test files (measured on a fresh clone: docs/BENCHMARKS.md, "CI"), started first: with a test file
# to a worker (make test: pytest -n JOBS --dist loadfile --no-loadscope-reorder; xdist's default reorder sorts files
# by their number of tests, which started the one-test kill/resume file last), the last file to start is short.
LONGEST_FIRST = ["test_shards_docker_pool.py", "test_harness_clis.py", "test_harness_mini.py",
                 "test_harness_aider.py", "test_harness_gptme.py", "test_bench_smoke_server.py", "test_standins.py",
                 "test_harbor_tasks.py",
                 "test_wheel_project.py", "test_prefect_outage.py", "test_harness_team_agent.py",
                 "test_kill_resume.py", "test_pypi_tasks_end_to_end.py", "test_pypi_pairs_end_to_end.py",
                 "test_shards_two_workers.py", "test_sandbox_adversarial.py", "test_bench_smoke.py",
                 "test_flow_end_to_end.py", "test_splits_night.py", "test_replay.py", "test_judge.py",
                 "test_scanner_results.py", "test_docs_commands.py", "test_deployment.py", "test_plugin_docs.py",
                 "test_types.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def prefect_server():
    """A real `prefect server start` (own SQLite database) for the whole session; yields its API URL.

    Set for this process (temporary_settings) and for subprocesses (PREFECT_API_URL in the environment).
    """
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from nightshift.deployments.server import ensure_server, stop

    try:
        # a loaded 2-core machine can take minutes to start a server; a failed start must not leave it behind
        url = ensure_server(port=free_port(), home=_STATE / "prefect-server", state_dir=_STATE, timeout_s=300)
        os.environ["PREFECT_API_URL"] = url
        with temporary_settings(updates={PREFECT_API_URL: url}):
            yield url
    finally:
        os.environ.pop("PREFECT_API_URL", None)
        stop("prefect-server", _STATE)


@pytest.fixture(scope="session")
def builtin_cases():
    from nightshift.suites import load_cases

    return load_cases(BUILTIN)
