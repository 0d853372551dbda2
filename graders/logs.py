"""Read per-test results out of one test runner's log (SWE-bench style: one run, many named tests)."""

from __future__ import annotations

import base64
import json
import re

from pydantic import BaseModel

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


HARBOR_LINE = "nightshift-harbor: "


class HarborVerdict(BaseModel):
    """What a Harbor verifier run decided, read from the wrapper's result line (tests/test_harbor.sh).

    Harbor's rules: reward.json (every numeric key is a named reward; ``reward`` from reward.txt when
    the JSON has none) wins over reward.txt (one number). nightshift's combination rule: the case's
    reward is the ``reward`` key when there is one, else the mean of the named rewards; the case
    passes when that is >= 1. A terminal-bench task (task.yaml) that writes no reward file is judged
    by its exit code, as terminal-bench's pytest runner does; a Harbor task without one fails.
    """

    passed: bool
    reward: float
    scores: dict[str, float] = {}
    detail: str = ""


def _decode(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    return base64.b64decode(value.encode(), validate=False).decode("utf-8", errors="replace")


def _reward_text(text: str) -> float:
    if not text.strip():
        raise ValueError("reward.txt is empty")
    return float(text.strip())


def _reward_json(text: str) -> dict[str, float]:
    parsed = json.loads(text)
    if not isinstance(parsed, dict):
        raise ValueError("reward.json must be a JSON object of named numbers")
    found = {str(k): float(v) for k, v in parsed.items() if isinstance(v, int | float) and not isinstance(v, bool)}
    if not found:
        raise ValueError("reward.json has no numeric field")
    return found


def harbor_verdict(stdout: str) -> HarborVerdict:
    """The verdict of the first result line the wrapper printed (it prints it before the test output)."""
    line = next((raw for raw in stdout.splitlines() if raw.startswith(HARBOR_LINE)), None)
    if line is None:
        return HarborVerdict(passed=False, reward=0.0, detail="the verifier wrapper printed no result line")
    try:
        record = json.loads(line[len(HARBOR_LINE):])
    except json.JSONDecodeError:
        return HarborVerdict(passed=False, reward=0.0, detail="the verifier wrapper's result line is not JSON")
    if "error" in record:
        return HarborVerdict(passed=False, reward=0.0, detail=str(record["error"]))
    code = int(record.get("exit", 1))
    txt, js = _decode(record.get("reward.txt")), _decode(record.get("reward.json"))
    try:
        if js is not None:
            scores = _reward_json(js)
            if "reward" not in scores and txt is not None:
                scores["reward"] = _reward_text(txt)
        elif txt is not None:
            scores = {"reward": _reward_text(txt)}
        elif record.get("format") == "terminal-bench":
            scores = {"reward": 1.0 if code == 0 else 0.0}
        else:
            return HarborVerdict(passed=False, reward=0.0, detail=f"the test script exited {code} and wrote neither "
                                 f"/logs/verifier/reward.txt nor reward.json")
    except ValueError as exc:
        return HarborVerdict(passed=False, reward=0.0, detail=f"unreadable reward file: {exc}")
    main = scores["reward"] if "reward" in scores else sum(scores.values()) / len(scores)
    return HarborVerdict(passed=main >= 1.0 - 1e-9, reward=min(1.0, max(0.0, main)), scores=scores,
                         detail=f"reward {main:g}" + (f" ({', '.join(f'{k}={v:g}' for k, v in scores.items())})"
                                                       if len(scores) > 1 else "") + f", exit {code}")


def fold(text: str, limit: int = 500) -> str:
    """The last whole lines of ``text`` that fit in ``limit`` characters, with a note of what was left out;
    never cut mid-line, so a message stays readable (the full text goes to validation.json)."""
    lines = text.rstrip().splitlines()
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if kept and size + len(line) + 1 > limit:
            break
        kept.append(line if len(line) <= limit else line[: limit - 3].rsplit(" ", 1)[0] + " ...")
        size += len(kept[-1]) + 1
    skipped = len(lines) - len(kept)
    return (f"[... {skipped} earlier lines]\n" if skipped else "") + "\n".join(reversed(kept))
