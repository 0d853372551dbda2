"""Read per-test results out of one test runner's log (SWE-bench style: one run, many named tests)."""

from __future__ import annotations

import re

_PYTEST_STATUS = ("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS")
_PASSING = {"PASSED", "XFAIL", "PASS"}
_NIGHTSHIFT = re.compile(r"^nightshift-test: (?P<name>\S+) (?P<status>PASS|FAIL)\s*$")
_REWARD = re.compile(r"^nightshift-reward: (?P<value>[-+0-9.eE]+)\s*$")


def parse_pytest(log: str) -> dict[str, bool]:
    """Test name -> passed, from ``pytest -rA`` summary lines (``PASSED a.py::t``, ``FAILED a.py::t - msg``).

    The last line about a test wins, as in the SWE-bench harness's pytest log parser.
    """
    results: dict[str, bool] = {}
    for raw in log.splitlines():
        line = raw.strip()
        status = next((s for s in _PYTEST_STATUS if line.startswith(s + " ")), None)
        if status is None:
            continue
        name = line[len(status) + 1:].split(" - ", 1)[0].strip()
        if name:
            results[name] = status in _PASSING
    return results


def parse_nightshift(log: str) -> dict[str, bool]:
    """Test name -> passed, from ``nightshift-test: NAME PASS|FAIL`` lines."""
    results: dict[str, bool] = {}
    for line in log.splitlines():
        match = _NIGHTSHIFT.match(line.strip())
        if match:
            results[match["name"]] = match["status"] in _PASSING
    return results


PARSERS = {"pytest": parse_pytest, "nightshift": parse_nightshift}


def reward_in(stdout: str) -> float | None:
    """The last ``nightshift-reward: X`` a test printed, clamped to [0, 1]; None when it printed none."""
    value = None
    for line in stdout.splitlines():
        match = _REWARD.match(line.strip())
        if match:
            try:
                value = min(1.0, max(0.0, float(match["value"])))
            except ValueError:
                continue
    return value
