"""Every `bench/` command still runs: each at ``--smoke`` size (seconds), as docs/BENCHMARKS.md invokes it.

Only that it completes and prints its figures is asserted; the figures themselves are measured at full size and
recorded in docs/BENCHMARKS.md. Benchmarks that start a Prefect server of their own are in
tests/test_bench_smoke_server.py (a file to a test worker: the two halves run side by side). gpu_check's smoke
is tests/test_perf_timing.py's CPU-path test; viewer_bench's is in tests/test_viewer.py (it needs a real run).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.sandbox_support import make_backend

SMOKE_NOTE = "smoke size: the command ran and printed its figures"


def run_bench(module: str, *args: str, timeout_s: int = 600) -> str:
    """``python -m bench.MODULE --smoke ARGS`` from the repository root; its output (exit 0 asserted)."""
    done = subprocess.run([sys.executable, "-m", f"bench.{module}", "--smoke", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout_s)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"bench.{module} exited {done.returncode}:\n{output[-4000:]}"
    assert SMOKE_NOTE in done.stdout, output[-2000:]
    return done.stdout


def test_compare_bench() -> None:
    out = run_bench("compare_bench")
    assert re.search(r"compare \(in process, analyse\): best \d+\.\d+s", out)
    assert "`nightshift compare` end to end" in out


def test_fleet_bench() -> None:
    out = run_bench("fleet_bench")
    assert re.search(r"fixed shares\s+\d\.\d+", out) and re.search(r"shared store\s+\d\.\d+", out)


def test_gateway_bench(tmp_path: Path) -> None:
    out = run_bench("gateway_bench", "--out", str(tmp_path / "gateway.json"))
    assert re.search(r"^\| gateway \| \d\.\d+", out, re.M) and (tmp_path / "gateway.json").is_file()


def test_hidden_bench() -> None:
    out = run_bench("hidden_bench")
    assert re.search(r"after: caught \d+/\d+ mutant-nights", out) and "ratio: after/before" in out


def test_hidden_bench_on_the_independent_corpus_and_its_builder() -> None:
    out = run_bench("hidden_bench", "--corpus", "bench/hidden_mutants_cosmic.json")
    assert "cosmic-ray 8.7.0" in out and re.search(r"after: caught \d+/\d+ mutant-nights", out)
    assert re.search(r"fair: caught on problem-nights without a false alarm: before \d+, after \d+", out)
    out = run_bench("mutant_corpus")
    assert re.search(r"2 solutions, \d+ cosmic-ray mutants pass check\(\)", out)
    out = run_bench("hidden_contracts")
    assert re.search(r"with the docstring's stated rules: \d+/\d+ inputs outside", out)


@pytest.mark.parametrize("backends", ["bubblewrap,docker"])
def test_proxy_bench(backends: str) -> None:
    for name in backends.split(","):
        make_backend(name)  # a backend that cannot run here: fail (CI) or skip, with the reason
    out = run_bench("proxy_bench", "--backends", backends)
    for name in backends.split(","):
        assert re.search(rf"^\| {name} \| \d+ \| \d+\.\d+ \|", out, re.M), out


def test_protocol_bench() -> None:
    out = run_bench("protocol_bench")
    for mode in ("direct", "chat stream", "responses", "responses stream", "anthropic", "anthropic stream"):
        assert re.search(rf"^\| {mode} \| \d+\.\d+ \|", out, re.M), out


def test_timing_claims() -> None:
    make_backend("bubblewrap")
    out = run_bench("timing_claims", "--backends", "bubblewrap")
    for claim in ("quota gate: 40 threads vs 1", "GPU card hand-over vs an Event wake-up",
                  "working limit 1 s: stopped after", "bubblewrap: spin killed at a 2 s timeout vs sleep 2",
                  "bubblewrap: exec leaving background sleeps vs echo"):
        assert re.search(rf"^\| {re.escape(claim)} \| [^|]+ \| [^|]+ \| \d+\.\d\d \|", out, re.M), out


def test_sandbox_bench() -> None:
    for name in ("bubblewrap", "docker"):
        make_backend(name)
    out = run_bench("sandbox_bench")
    for name in ("bubblewrap", "docker"):
        assert re.search(rf"^\| {name} \| \d+ / \d+ \|", out, re.M), out


def test_sandbox_bench_against_a_commit() -> None:
    make_backend("bubblewrap")
    out = run_bench("sandbox_bench", "--compare", "HEAD", "--backends", "bubblewrap")
    assert re.search(r"^\| bubblewrap \| HEAD \(tree\) \| \d+ / \d+ \|", out, re.M), out


def test_scanner_bench() -> None:
    make_backend("bubblewrap")
    out = run_bench("scanner_bench")
    assert "recall: 1/1 cheats caught" in out and "false flags on honest trials: 0/1 (0.0%)" in out, out
    assert re.search(r"scanning cost per trial: median \d+\.\d+ ms", out), out


def test_docker_exec_bench() -> None:
    make_backend("docker")  # skipped (or failed where required) without the engine and the image, like the others
    out = run_bench("docker_exec_bench")
    assert re.search(r"nightshift reader: \d+ of 20 quick execs", out) and "socket reader:" in out


def test_judge_bench() -> None:
    make_backend("bubblewrap")
    out = run_bench("judge_bench")
    assert "| delete graded test | cheat |" in out and "cheat test_files_touched" in out, out
    assert re.search(r"per trial: median \d+ input tokens", out), out


def test_cli_images_bench() -> None:
    make_backend("bubblewrap")  # a backend that cannot run here: fail (CI) or skip, with the reason
    out = run_bench("cli_images", "--backend", "bubblewrap", timeout_s=900)
    for name in ("codex", "claude-code"):
        assert re.search(rf"^\| {name} \| [a-z-]+==[\d.]+ \| (built|reused) \| \d+\.\d \| \d+ \|$", out, re.M), out
