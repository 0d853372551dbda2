"""Hidden stress tests: generated on the grading host from the case's seeded generator, at grade time.

The generator (a stdlib-only script in the case folder) runs as
``python3 -I -S GENERATOR --seed N --out DIR`` under a memory and CPU limit and writes:

* ``DIR/files/``: copied into the sandbox at /grader/hidden only after the agent has finished;
* ``DIR/hidden.json``: ``{"tests": [...]}``, each test ``{"name", "command"}`` (passes on exit 0) or
  ``{"name", "command", "expected": [repr, ...], "inputs": [repr, ...]}`` (an outputs test: the
  command prints one JSON record per input and each input counts as one hidden test, judged here
  against ``expected``; ``inputs`` names each test by its input's content hash, so a flaky-test
  exclusion follows its input, not its position).

Output is a pure function of (case content, seed) — generators make no time-based decisions — so it
is generated once per process and reused by every trial of the case, and its digest (recorded in
the row) proves a re-grade met the same tests. It lives in a private temporary folder, never in
the run folder.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from pydantic import BaseModel, Field

from nightshift.errors import SuiteError
from nightshift.models import Case
from nightshift.scratch import new_scratch, private_root
from nightshift.suites.loader import tree_hash

MEMORY_LIMIT_BYTES = 4 * 1024**3


class HiddenTestSpec(BaseModel):
    """One entry of hidden.json."""

    name: str
    command: str
    expected: list[str] | None = Field(None, description="Expected reprs, one per input, for an outputs test.")
    timeout_s: float | None = Field(None, description="Seconds the command may run; default: the case's limit.")
    inputs: list[str] | None = Field(None, description="Each input's text (same order as expected): names the "
                                                       "per-input tests by content hash.")

    def input_names(self) -> list[str]:
        """One test name per expected value: ``name[<sha256 of the input>[:12]]``, or ``name[k]`` without inputs."""
        assert self.expected is not None
        if self.inputs is None:
            return [f"{self.name}[{index}]" for index in range(len(self.expected))]
        return [f"{self.name}[{input_key(text)}]" for text in self.inputs]


def input_key(text: str) -> str:
    """The content hash that names one hidden input (and keys its flaky-test exclusion)."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


class GeneratedTests(BaseModel):
    """Where one generation's files are on the host, and the tests it declared."""

    files: Path
    tests: list[HiddenTestSpec]
    seed: int
    digest: str = Field(description="sha256 over everything generated: equal digests, identical tests.")


class HiddenGenerationError(SuiteError, RuntimeError):
    """The case's generator failed: a grading-host problem, never the agent's."""


class HiddenTestSource:
    """Generates each (case, seed) once per process, thread-safely, into a private temporary folder."""

    def __init__(self) -> None:
        self._roots: dict[bool, Path] = {}  # protected or not -> its scratch folder
        self._done: dict[tuple[str, str, int], GeneratedTests] = {}
        self._locks: dict[tuple[str, str, int], threading.Lock] = {}
        self._guard = threading.Lock()

    def tests_for(self, case: Case, seed: int) -> GeneratedTests:
        assert case.hidden is not None, f"{case.id} has no hidden-test generator"
        key = (case.id, case.content_hash, seed)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
            if case.protected not in self._roots:
                # under the state folder, not /tmp: removed at exit, or by reap_scratch after a kill; a protected
                # case's tests only in memory (private_root), never on a disk in the clear
                root = new_scratch("hidden", private_root() if case.protected else None)
                self._roots[case.protected] = root
                atexit.register(shutil.rmtree, root, True)
            root = self._roots[case.protected]
        with lock:
            if key not in self._done:
                self._done[key] = generate(case, seed, root / f"{case.id}-{case.content_hash[:12]}-{seed}")
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
    names = [n for t in tests for n in ([t.name] if t.expected is None else [t.name, *t.input_names()])]
    if len(set(names)) != len(names):
        raise HiddenGenerationError(f"{script}: hidden test names repeat (two equal inputs?): {sorted(names)}")
    for test in tests:
        if test.expected is not None and test.inputs is not None and len(test.inputs) != len(test.expected):
            raise HiddenGenerationError(f"{script}: test {test.name}: {len(test.inputs)} inputs but "
                                        f"{len(test.expected)} expected values")
    return GeneratedTests(files=out / "files", tests=tests, seed=seed, digest=tree_hash(out))
