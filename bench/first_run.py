"""A newcomer's first `make run` and its resume, timed from outside on a terminal (docs/BENCHMARKS.md).

    .venv/bin/python -m bench.first_run                 # clone this checkout, `make run` twice
    .venv/bin/python -m bench.first_run --no-pip-cache  # as on a fresh machine: pip downloads everything

The checkout's committed tree is cloned into a temporary folder (no .venv, no .nightshift, no runs) and
`make run` runs there on a pseudo-terminal, as a user's shell gives it (the live bar needs one). Printed:
each set-up step's line with its duration, how many lines came before the live bar, the time to the printed
comparison, and the same for the second `make run` (the resume). System packages are whatever this machine
has: their step says "installed", or how long apt took. The local Prefect server both runs start is stopped
at the end. ``--smoke`` reuses this checkout's .venv and runs a one-case night instead (seconds).
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.night_bench import _free_port
from bench.smoke import add_smoke, apply_smoke, judged

REPO = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
BAR = re.compile(r"^\s*trials\s.*\d+/\d+")
STEP = re.compile(r"^(\S.{0,60}?)\s+(\d+\.\d) s\b")
TINY = """name: first-run-smoke
suites: [builtin]
cases: [sh-csv-column-sum]
variants:
  - {name: strong, model: sim-strong}
  - {name: weak, model: sim-weak}
seeds: [1]
concurrency: 2
sandbox: {backend: bubblewrap, image: host}
model: {base_url: null}
output_dir: ../runs
"""


def on_terminal(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, list[tuple[float, str]]]:
    """Run ``command`` with a pseudo-terminal as its stdin/stdout/stderr; its exit status and (seconds, line) of
    everything it printed (terminal escapes removed; a bar redrawn with \\r counts as one line per redraw)."""
    started = time.monotonic()
    master, slave = pty.openpty()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    lines: list[tuple[float, str]] = []
    pending = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal's other end is gone
            break
        if not data:
            break
        pending += data
        *complete, pending = pending.split(b"\n")
        lines.extend((time.monotonic() - started, ANSI.sub("", raw.decode(errors="replace")).rstrip())
                     for raw in complete)
    os.close(master)
    if pending:
        lines.append((time.monotonic() - started, ANSI.sub("", pending.decode(errors="replace")).rstrip()))
    return proc.wait(), lines


def figures(lines: list[tuple[float, str]]) -> dict:
    before_bar = next((i for i, (_, text) in enumerate(lines) if BAR.search(text)), None)
    compared = next((at for at, text in lines if "Scores by arm" in text), None)
    steps = [(m.group(1).strip(), float(m.group(2))) for _, text in lines if (m := STEP.match(text))]
    return {"lines_before_bar": before_bar, "comparison_at_s": compared, "steps": steps}


def run_twice(project: Path, env: dict[str, str], make_args: list[str]) -> list[dict]:
    out = []
    for label in ("first", "second (resume)"):
        code, lines = on_terminal(["make", "run", *make_args], project, env)
        if code != 0:
            raise SystemExit(f"`make run` ({label}) exited {code}:\n" + "\n".join(t for _, t in lines[-40:]))
        out.append({"label": label, "wall_s": lines[-1][0] if lines else 0.0, "lines": lines, **figures(lines)})
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-pip-cache", action="store_true", help="pip downloads every package (a fresh machine)")
    p.add_argument("--keep", action="store_true", help="keep the cloned project folder")
    add_smoke(p)
    args = apply_smoke(p.parse_args(argv))
    work = Path(tempfile.mkdtemp(prefix="nightshift-first-run-"))
    work.chmod(0o755)  # sandboxes (their own uids) must reach the run folder's workspaces
    project = work / "nightshift"
    subprocess.run(["git", "clone", "-q", str(REPO), str(project)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "NIGHTSHIFT_", "VIRTUAL_ENV"))}
    env.update(TERM="xterm", COLUMNS="120", LINES="40")
    # a port of its own: on a shared machine 4200 may be someone else's server, which the clone must not use
    # (nightshift now refuses one that takes requests without its credential)
    env["NIGHTSHIFT_PREFECT_PORT"] = str(_free_port())
    if args.no_pip_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    make_args: list[str] = []
    if args.smoke:
        (project / "experiments" / "smoke.yaml").write_text(TINY)
        # this checkout's venv as it is: -o keeps make from reinstalling it from the clone
        venv = REPO / ".venv"
        make_args = [f"VENV={venv}", "-o", f"{venv}/.installed", "EXPERIMENT=experiments/smoke.yaml"]
    try:
        runs = run_twice(project, env, make_args)
    finally:
        venv = project / ".venv" if (project / ".venv" / "bin" / "nightshift").exists() else REPO / ".venv"
        subprocess.run([str(venv / "bin" / "nightshift"), "server", "stop"], cwd=project, env=env, capture_output=True)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for run in runs:
        print(f"`make run`, {run['label']}: {run['wall_s']:.1f} s; comparison printed at "
              f"{run['comparison_at_s'] or float('nan'):.1f} s; {run['lines_before_bar']} lines before the live bar")
        for name, seconds in run["steps"]:
            print(f"    {name:<40} {seconds:7.1f} s")
        for at, text in run["lines"][: (run["lines_before_bar"] or 0)]:
            print(f"    | {at:6.1f} s  {text[:100]}")
    first, second = runs
    met = (first["lines_before_bar"] is not None and first["lines_before_bar"] <= 30 and first["wall_s"] <= 240
           and second["wall_s"] <= 15)
    return judged(args, 0 if met else 1)


if __name__ == "__main__":
    sys.exit(main())
