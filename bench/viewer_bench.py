"""First paint of ``nightshift view`` on a big run: from navigation to the overview and the first trial rows on
screen, in Debian's chromium driven by Playwright, against the real viewer server (docs/BENCHMARKS.md).

    .venv/bin/python -m bench.viewer_bench --source runs/<a real run> --trials 5000
    .venv/bin/python -m bench.viewer_bench --run runs/<a 5,000-trial run>

``--source`` makes a run of ``--trials`` trials from a real run folder: its rows, trajectories, grades and
diffs copied round-robin under new trial ids and seeds (so the page meets real trajectories, not empty
ones). ``--run`` measures an existing run folder as it is. Prints the median of ``--repeat`` cold loads
(new browser context each time, server restarted so nothing is cached) and what the page had to fetch.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import uvicorn

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.tasks.results import read_results, write_parquet
from nightshift.viewer.run_data import RunData
from nightshift.viewer.server import create_app


def clone_run(source: Path, out: Path, trials: int) -> Path:
    """A run of ``trials`` trials made of ``source``'s trials, each copied with a new id and seed."""
    rows = [json.loads(p.read_text()) for p in sorted((source / "results").glob("*.json"))]
    for sub in ("results", "trajectories", "grades", "diffs"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    ids = []
    for i in range(trials):
        row = dict(rows[i % len(rows)])
        old = row["trial_id"]
        new = hashlib.sha256(f"{old}-{i}".encode()).hexdigest()
        row.update(trial_id=new, run_id=out.name, seed=row["seed"] + 100 * (i // len(rows)))
        (out / "results" / f"{new}.json").write_text(json.dumps(row))
        for sub, suffix in (("trajectories", ".jsonl"), ("grades", ".json"), ("diffs", ".diff")):
            if (source / sub / f"{old}{suffix}").is_file():
                shutil.copyfile(source / sub / f"{old}{suffix}", out / sub / f"{new}{suffix}")
        ids.append(new)
    for name in ("manifest.json", "summary.json"):
        if (source / name).is_file():
            shutil.copyfile(source / name, out / name)
    write_parquet(read_results(out, ids), out / "results.parquet")
    return out


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def first_paint(run_dir: Path, repeat: int) -> dict:
    from playwright.sync_api import sync_playwright

    figures = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                     args=["--no-sandbox"])
        for _ in range(repeat):
            port = _free_port()  # a fresh server each time: nothing read before is cached
            t0 = time.perf_counter()
            app = create_app(RunData.open(run_dir))  # reads the run and builds the page and list (warm)
            read_s = time.perf_counter() - t0
            server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
            thread = threading.Thread(target=server.run, daemon=True)
            thread.start()
            while not server.started:
                time.sleep(0.02)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            sizes: list[int] = []
            page.on("response", lambda r, s=sizes: s.append(len(r.body())) if r.ok else None)
            page.goto(f"http://127.0.0.1:{port}/run/{run_dir.name}/")
            page.wait_for_selector("body[data-ready='1']", timeout=60_000)
            mark = page.evaluate("performance.getEntriesByName('ns-first-rows')[0].startTime")
            rows = page.locator("#grid-body .row").count()
            page.evaluate("location.hash = 'status=failed'")  # one filter over every row, timed in the page
            filter_ms = page.evaluate("""() => { const t = performance.now(); location.hash = 'q=zzz-none';
                window.dispatchEvent(new HashChangeEvent('hashchange')); return performance.now() - t; }""")
            figures.append({"first_paint_ms": mark, "rows_drawn": rows, "bytes": sum(sizes), "requests": len(sizes),
                            "filter_ms": filter_ms, "read_s": read_s})
            context.close()
            server.should_exit = True
            thread.join(10)
        browser.close()
    return {"first_paint_ms": statistics.median(f["first_paint_ms"] for f in figures),
            "worst_ms": max(f["first_paint_ms"] for f in figures), "runs": figures}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", type=Path, help="measure this run folder as it is")
    p.add_argument("--source", type=Path, help="make a run of --trials trials from this real run folder")
    p.add_argument("--trials", type=int, default=5000)
    p.add_argument("--repeat", type=int, default=3)
    add_smoke(p, trials=40, repeat=1)
    args = apply_smoke(p.parse_args(argv))
    work = None
    if args.run:
        run_dir = args.run
    elif args.source:
        work = Path(tempfile.mkdtemp(prefix="nightshift-viewer-bench-"))
        started = time.monotonic()
        run_dir = clone_run(args.source, work / f"bench-{args.trials}", args.trials)
        print(f"made {args.trials} trials from {args.source} in {time.monotonic() - started:.1f} s")
    else:
        p.error("give --run or --source")
    try:
        trials = len(RunData.open(run_dir).rows)
        result = first_paint(run_dir, args.repeat)
        print(f"{trials} trials: first paint median {result['first_paint_ms']:.0f} ms, worst "
              f"{result['worst_ms']:.0f} ms over {args.repeat} cold loads (target ≤ 2000 ms)")
        for f in result["runs"]:
            print(f"  {f['first_paint_ms']:.0f} ms, {f['requests']} requests, {f['bytes'] / 1e6:.2f} MB, "
                  f"{f['rows_drawn']} rows drawn; one filter over every row {f['filter_ms']:.0f} ms; "
                  f"server start (reading the run) {f['read_s']:.1f} s")
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
    return judged(args, 0 if result["first_paint_ms"] <= 2000 else 1)


if __name__ == "__main__":
    raise SystemExit(main())
