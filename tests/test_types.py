"""The type check holds: mypy over the product (scripts/typecheck.py, [tool.mypy] in pyproject.toml) finds
nothing — strict on the bottom layer (nightshift/*.py, the plugin surface with it) and on experiment/, mypy's
defaults elsewhere — and it does report a wrong snippet under the strict settings, so this test can fail."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import typecheck  # noqa: E402

STRICT_ROOMS = {"experiment", "examples", "protocols", "splits"}  # with the bottom layer, nightshift/*.py


def _mypy(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "scripts" / "typecheck.py"), *extra], cwd=REPO,
                          capture_output=True, text=True, timeout=900)


@pytest.mark.timeout(900)  # a cold cache (a fresh CI checkout) checks every module: minutes on 2 cores
def test_the_product_type_checks() -> None:
    done = _mypy()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_a_wrong_snippet_in_the_bottom_layer_is_reported(tmp_path: Path) -> None:
    """The positive control: an untyped def (strict only) and a wrong return, checked as a bottom-layer module."""
    probe = tmp_path / "probe.py"
    probe.write_text("def untyped(x):\n    return x\n\n\ndef wrong() -> int:\n    return 'text'\n")
    done = _mypy("--probe", str(probe))
    assert done.returncode == 1, done.stdout
    assert "nightshift/_typecheck_probe.py:1: error: Function is missing a type annotation  [no-untyped-def]" \
        in done.stdout, done.stdout
    assert "nightshift/_typecheck_probe.py:6: error: Incompatible return value type" in done.stdout, done.stdout
    assert "Found 2 errors in 1 file" in done.stdout, done.stdout  # the rest of the product stays clean


def test_every_room_is_checked_strict_or_basic_on_purpose() -> None:
    """The basic section lists every mapped room but the strict ones: a new room is placed on purpose."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    strict = next(o for o in config if o.get("disallow_untyped_defs") is True)
    basic = next(o for o in config if o.get("disallow_untyped_defs") is False)
    assert strict["module"] == ["nightshift", "nightshift.*"]
    rooms = set(typecheck.mapping())
    assert {m.removeprefix("nightshift.").removesuffix(".*") for m in basic["module"]} == rooms - STRICT_ROOMS
