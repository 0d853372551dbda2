"""What the Prefect server's API authentication costs and refuses: one server started as nightshift starts it
(deployments/server.py: auth on) and one started the same way with auth off, each sent the same sequential
requests from one client; the latency of an authenticated read, of an unauthenticated one, and of the refusal.

    .venv/bin/python -m bench.server_auth                  # 300 requests of each kind per server
    .venv/bin/python -m bench.server_auth --requests 1000
    .venv/bin/python -m bench.server_auth --smoke          # 20 of each: the command works

Prints one line per server and kind: status counts, median and p95 in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.night_bench import _free_port
from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.deployments.auth import basic_header
from nightshift.deployments.server import _background, api_url, ensure_server, is_up, server_env, stop

READ = "/flow_runs/filter"  # what a worker and the flow do most: a filtered read


def _send(client: httpx.Client, url: str, headers: dict[str, str], n: int) -> tuple[dict[int, int], list[float]]:
    codes: dict[int, int] = {}
    took = []
    for _ in range(n):
        began = time.perf_counter()
        code = client.post(url + READ, json={"limit": 1}, headers=headers).status_code
        took.append((time.perf_counter() - began) * 1000)
        codes[code] = codes.get(code, 0) + 1
    return codes, took


def _report(server: str, kind: str, codes: dict[int, int], took: list[float]) -> None:
    p95 = statistics.quantiles(took, n=20)[-1]
    print(f"{server:<10} {kind:<16} status {codes}  median {statistics.median(took):6.2f} ms  p95 {p95:6.2f} ms",
          flush=True)


def _unauthenticated_server(work: Path) -> tuple[str, str]:
    """The same `prefect server start` with no auth string: the comparison, never what nightshift runs."""
    port = _free_port()
    env = server_env(port, work / "open-home")
    _background("open-server", [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
                                "--port", str(port)], env, work)
    url = api_url(port)
    deadline = time.monotonic() + 300
    while not is_up(url):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the comparison server did not start; see {work / 'open-server.log'}")
        time.sleep(0.5)
    return url, "open-server"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    add_smoke(parser, requests=20)
    args = apply_smoke(parser.parse_args(argv))
    with tempfile.TemporaryDirectory(prefix="nightshift-auth-bench-") as folder:
        work = Path(folder)
        try:
            url = ensure_server(port=_free_port(), home=work / "home", state_dir=work, timeout_s=300)
            secret = (work / "prefect-server.auth").read_text().strip()
            open_url, _ = _unauthenticated_server(work)
            with httpx.Client(timeout=30) as client:
                for name, target, headers in (("auth on", url, basic_header(secret)), ("auth off", open_url, {})):
                    _send(client, target, headers, 20)  # warm-up
                    _report(name, "credential" if headers else "no credential",
                            *_send(client, target, headers, args.requests))
                _report("auth on", "no credential", *_send(client, url, {}, args.requests))
                _report("auth on", "wrong credential", *_send(client, url, basic_header(secret + "x"), args.requests))
        finally:
            stop("prefect-server", work, wait_s=30)
            stop("open-server", work, wait_s=30)
    return judged(args, 0)


if __name__ == "__main__":
    raise SystemExit(main())
