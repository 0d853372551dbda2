"""Per-test verdicts from a junit XML report (what pytest's --junitxml writes).

A test passed when its ``<testcase>`` has no failure, error or skipped child; a test reported twice
counts as passed only if every report says so. Names are ``classname::name``, the same at import
and at grading. The report is read from a path the grader chose, never from the test output.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

MAX_REPORT_BYTES = 64 << 20
_NOT_PASSED = ("failure", "error", "skipped")


class JunitError(ValueError):
    """The report is missing, too large or not junit XML."""


def parse_junit(xml: str) -> dict[str, tuple[bool, float, str, bool]]:
    """Test name -> (passed, seconds, failure text, failed); a skipped test neither passed nor failed."""
    if len(xml) > MAX_REPORT_BYTES:
        raise JunitError(f"the report is over {MAX_REPORT_BYTES >> 20} MiB")
    if "<!DOCTYPE" in xml or "<!ENTITY" in xml:
        raise JunitError("the report declares a DOCTYPE or entities; pytest never writes one")
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise JunitError(f"not XML: {exc}") from None
    if root.tag not in ("testsuites", "testsuite"):
        raise JunitError(f"the root element is <{root.tag}>, not <testsuites> or <testsuite>")
    found: dict[str, tuple[bool, float, str, bool]] = {}
    for case in root.iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        bad = [child for child in case if child.tag in _NOT_PASSED]
        text = "\n".join(f"{c.get('message', '')}\n{c.text or ''}" for c in bad)
        try:
            seconds = float(case.get("time", "0") or 0)
        except ValueError:
            seconds = 0.0
        before = found.get(name, (True, 0.0, "", False))
        failed = before[3] or any(child.tag in ("failure", "error") for child in bad)
        found[name] = (not bad and before[0], seconds, text[:4000], failed)
    return found
