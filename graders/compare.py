"""Compare a program's printed outputs with expected outputs kept on the grading host.

Outputs tests (HumanEval-style hidden stress tests) print one JSON line per input,
``{"i": 3, "out": "<repr of the value>"}`` or ``{"i": 3, "error": "..."}``. The expected values
never enter the sandbox, so a candidate cannot read them; it can only print its own answers.
"""

from __future__ import annotations

import ast
import json
import math
from typing import Any

FLOAT_REL_TOL = 1e-6
FLOAT_ABS_TOL = 1e-6


def parse_value(text: str) -> tuple[bool, Any]:
    """(True, value) when ``text`` is a Python literal, else (False, None). Never evaluates code."""
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def same_value(expected: Any, got: Any) -> bool:
    """Equality as ``==`` judges it, except that floats match within a small tolerance and containers
    must be of the same kind (a tuple is not a list, as HumanEval's checks already require)."""
    if isinstance(expected, float) or isinstance(got, float):
        if isinstance(expected, bool) or isinstance(got, bool):
            return expected == got and type(expected) is type(got)
        if not isinstance(expected, int | float) or not isinstance(got, int | float):
            return False
        if math.isnan(expected) or math.isnan(got):
            return math.isnan(expected) and math.isnan(got)
        return math.isclose(expected, got, rel_tol=FLOAT_REL_TOL, abs_tol=FLOAT_ABS_TOL)
    if isinstance(expected, list | tuple):
        return (type(expected) is type(got) and len(expected) == len(got)
                and all(same_value(e, g) for e, g in zip(expected, got, strict=True)))
    if isinstance(expected, dict):
        return (isinstance(got, dict) and expected.keys() == got.keys()
                and all(same_value(v, got[k]) for k, v in expected.items()))
    try:
        return bool(expected == got)
    except Exception:  # noqa: BLE001 - a value whose == raises is simply not equal
        return False


def read_outputs(stdout: str) -> dict[int, dict]:
    """Index -> the first JSON record printed for it; lines that are not records are ignored."""
    found: dict[int, dict] = {}
    for line in stdout.splitlines():
        if not line.startswith('{"i":'):
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("i"), int):
            found.setdefault(record["i"], record)
    return found


def judge(expected_repr: str, record: dict | None) -> tuple[bool, str]:
    """Whether one printed record matches the expected value, and a short reason when it does not."""
    if record is None:
        return False, "no output for this input (crashed or timed out before it)"
    if "error" in record:
        return False, f"raised {str(record['error'])[:200]}"
    ok_exp, expected = parse_value(expected_repr)
    ok_got, got = parse_value(str(record.get("out", "")))
    if not ok_exp:
        return False, "expected value could not be parsed (generator bug)"
    if not ok_got:
        return False, f"output is not a plain value: {str(record.get('out'))[:200]}"
    if same_value(expected, got):
        return True, ""
    return False, f"expected {expected_repr[:150]}, got {str(record.get('out'))[:150]}"
