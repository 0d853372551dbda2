"""Every skip goes through tests/host_support.py, and a required backend or tool fails there instead of skipping."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO
from tests.host_support import REQUIRE_ENV, chromium, unavailable

# skips that no host can turn into a requirement (the machine's architecture), with the file they are in
NOT_A_BACKEND = {"test_sandbox_adversarial.py": ['pytest.skip("the probe uses x86_64 syscall numbers")']}


def test_a_required_name_fails_and_an_unlisted_one_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_ENV, "bubblewrap, docker")
    with pytest.raises(pytest.fail.Exception, match=f"docker is required here .{REQUIRE_ENV}.* no engine"):
        unavailable("docker", "no engine")
    with pytest.raises(pytest.skip.Exception, match="chromium cannot run here: not installed"):
        unavailable("chromium", "not installed")
    monkeypatch.setenv(REQUIRE_ENV, "all")
    with pytest.raises(pytest.fail.Exception, match="tmpfs is required here"):
        unavailable("tmpfs", "no mount")
    monkeypatch.setenv("PATH", "/nonexistent")  # no chromium on this PATH: required (all), so a failure
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        chromium()


def test_no_test_skips_on_its_own() -> None:
    """A skip written in a test file would ignore NIGHTSHIFT_REQUIRE_BACKENDS: only host_support.py skips."""
    own = re.compile(r"pytest\.skip\(.*|pytest\.mark\.skipif.*|pytest\.importorskip\(.*")
    files = sorted((REPO / "tests").glob("*.py"))
    assert len(files) > 50  # the scan saw the test folder
    found = {path.name: own.findall(path.read_text()) for path in files if path.name not in
             ("host_support.py", "test_host_support.py")}
    assert {name: hits for name, hits in found.items() if hits} == NOT_A_BACKEND
