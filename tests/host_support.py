"""What this host can run, asked in one place: a missing backend or tool skips the test, or fails it where required.

Every test that needs something of the host it may lack (a sandbox backend, the built sandbox image, chromium, a
tmpfs mount, git, root) asks here instead of calling ``pytest.skip`` itself, so one rule holds for all of them:
a name listed in ``NIGHTSHIFT_REQUIRE_BACKENDS`` (comma-separated; ``all`` for every name) that cannot run here
fails the test with the reason; an unlisted one skips with the same reason. CI (.ci/run) lists every name.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

REQUIRE_ENV = "NIGHTSHIFT_REQUIRE_BACKENDS"
NAMES = ("bubblewrap", "docker", "chromium", "tmpfs", "git", "root")
"""Every name a test may ask for: the sandbox backends, then the tools and host capabilities some tests need."""


def required() -> set[str]:
    listed = {name.strip() for name in os.environ.get(REQUIRE_ENV, "").split(",") if name.strip()}
    return set(NAMES) if "all" in listed else listed


def unavailable(name: str, reason: str) -> NoReturn:
    """Skip for ``reason``, or fail when ``name`` is required here: a required backend never passes silently."""
    assert name in NAMES, f"{name!r} is not one of {NAMES}; add it there (and to .ci/run's list)"
    if name in required():
        pytest.fail(f"{name} is required here ({REQUIRE_ENV}) but cannot run: {reason}")
    pytest.skip(f"{name} cannot run here: {reason}")


def need_root(why: str) -> None:
    if os.geteuid() != 0:
        unavailable("root", f"needs root ({why})")


def need_tools(name: str, *tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        unavailable(name, f"{', '.join(missing)} not installed (apt-get install {' '.join(missing)})")


def chromium() -> str:
    """The chromium binary Playwright drives (Debian's package)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        unavailable("chromium", "chromium is not installed (apt-get install chromium); .ci/run installs it")
    return found
