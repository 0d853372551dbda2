"""Hidden stress tests: generated on the grading host from the case's seeded generator, at grade time.

The generator (a stdlib-only script in the case folder) runs as
``python3 -I -S GENERATOR --seed N --out DIR`` under a memory and CPU limit and writes:

* ``DIR/files/``: copied into the sandbox at /grader/hidden only after the agent has finished;
* ``DIR/hidden.json``: ``{"tests": [...]}``, each test ``{"name", "command"}`` (passes on exit 0) or
  ``{"name", "command", "expected": [repr, ...]}`` (an outputs test: the command prints one JSON
  record per input and each input counts as one hidden test, judged here against ``expected``).

Output is a pure function of (case content, seed), so it is generated once per process and reused
by every trial of the case; it lives in a private temporary folder, never in the run folder.
"""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from pydantic import BaseModel, Field

from nightshift.models import Case

MEMORY_LIMIT_BYTES = 4 * 1024**3


class HiddenTestSpec(BaseModel):
    """One entry of hidden.json."""

    name: str
    command: str
    expected: list[str] | None = Field(None, description="Expected reprs, one per input, for an outputs test.")
    timeout_s: float | None = Field(None, description="Seconds the command may run; default: the case's limit.")


class GeneratedTests(BaseModel):
    """Where one generation's files are on the host, and the tests it declared."""

    files: Path
    tests: list[HiddenTestSpec]


class HiddenGenerationError(RuntimeError):
    """The case's generator failed: a grading-host problem, never the agent's."""


class HiddenTestSource:
    """Generates each (case, seed) once per process, thread-safely, into a private temporary folder."""

    def __init__(self) -> None:
        self._root: Path | None = None
        self._done: dict[tuple[str, str, int], GeneratedTests] = {}
        self._locks: dict[tuple[str, str, int], threading.Lock] = {}
        self._guard = threading.Lock()

    def tests_for(self, case: Case, seed: int) -> GeneratedTests:
        assert case.hidden is not None, f"{case.id} has no hidden-test generator"
        key = (case.id, case.content_hash, seed)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
            if self._root is None:
                self._root = Path(tempfile.mkdtemp(prefix="nightshift-hidden-"))
                atexit.register(shutil.rmtree, self._root, True)
        with lock:
            if key not in self._done:
                self._done[key] = generate(case, seed, self._root / f"{case.id}-{case.content_hash[:12]}-{seed}")
            return self._done[key]


def generate(case: Case, seed: int, out: Path) -> GeneratedTests:
    """Run the generator into ``out`` (emptied first) and read what it declared."""
    assert case.hidden is not None
    shutil.rmtree(out, ignore_errors=True)
    (out / "files").mkdir(parents=True)
    script = case.root / case.hidden.generator
    argv = ["prlimit", f"--as={MEMORY_LIMIT_BYTES}", f"--cpu={int(case.hidden.timeout_s) + 5}", "--",
            sys.executable, "-I", "-S", str(script), "--seed", str(seed), "--out", str(out)]
    try:
        proc = subprocess.run(argv, cwd=script.parent, capture_output=True, text=True, timeout=case.hidden.timeout_s,
                              env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"})
    except subprocess.TimeoutExpired as exc:
        raise HiddenGenerationError(f"{script}: hidden-test generator ran past {case.hidden.timeout_s}s") from exc
    if proc.returncode != 0:
        raise HiddenGenerationError(f"{script}: hidden-test generator exited {proc.returncode}: "
                                    f"{proc.stderr[-500:]}")
    try:
        declared = json.loads((out / "hidden.json").read_text())
        tests = [HiddenTestSpec.model_validate(t) for t in declared["tests"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise HiddenGenerationError(f"{script}: generator wrote no valid hidden.json in --out: {exc}") from exc
    names = [t.name for t in tests]
    if len(set(names)) != len(names):
        raise HiddenGenerationError(f"{script}: hidden test names repeat: {sorted(names)}")
    return GeneratedTests(files=out / "files", tests=tests)
