"""Shared test setup: quiet, isolated Prefect state and sandbox root; a Prefect server when a test needs one."""

from __future__ import annotations

import os
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


@pytest.fixture(scope="session")
def prefect_server():
    """A temporary Prefect server (with its own SQLite database) for the whole test session."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture(scope="session")
def builtin_cases():
    from suites import load_cases

    return load_cases(BUILTIN)
