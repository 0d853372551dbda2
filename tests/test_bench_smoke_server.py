"""The `bench/` commands that start a Prefect server of their own, each at ``--smoke`` size (see
tests/test_bench_smoke.py): the 5,000-trial night and its resume, the server burst and a clone's first `make run`.
The shard pools' bench is in tests/test_shards_docker_pool.py, on the worker that has built the worker image
(run beside that file it only waited for the other's build: 241 s of a CI run)."""

from __future__ import annotations

import re

from tests.sandbox_support import make_backend
from tests.test_bench_smoke import run_bench


def test_night_bench() -> None:
    out = run_bench("night_bench")
    assert re.search(r"^makespan\s+\d+\.\d+ s", out, re.M) and "orchestration overhead per trial" in out


def test_resume_bench() -> None:
    out = run_bench("resume_bench")
    assert re.search(r"`nightshift run` of a finished \d+-trial night, end to end: \d+\.\d+ s, 0 model calls", out)
    assert re.search(r"resume of a night killed at 90%: \d+\.\d+ s", out)


def test_server_burst() -> None:
    out = run_bench("server_burst")
    assert re.search(r"after the restart:\s+60 task runs", out), out


def test_first_run() -> None:
    """bench/first_run.py: a clone's `make run` on a pseudo-terminal, twice (smoke: this venv, one case)."""
    make_backend("bubblewrap")
    out = run_bench("first_run", timeout_s=900)
    assert re.search(r"`make run`, first: \d+\.\d+ s; comparison printed at \d+\.\d+ s; \d+ lines before", out), out
    assert "`make run`, second (resume)" in out
