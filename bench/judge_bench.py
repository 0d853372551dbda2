"""What the judge scanner costs per trial, and that its flags reach the rows: the scanner bench's scripted agents on
bench-calc (real trials: bubblewrap, the reference loop, the case's grader), then each trial judged through a real
gateway against the simulator, as ``nightshift scan`` does.

    .venv/bin/python -m bench.judge_bench                 # every bench-calc cheat and honest agent
    .venv/bin/python -m bench.judge_bench --smoke         # 1 trial: the command works

Prints, per trial, the judge's request size (input tokens, as the endpoint counted them), its answer's tokens, the
seconds the judge took against the trial's grading seconds, and the flags it raised. The judge here is the
simulator's policy (simulator/judge_policy.py), so the flags measure the plumbing and the policy, not a real
model's judgement; the token counts are what a real endpoint would be sent for these trajectories.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.scanner_bench import CHEATS, HONEST, run_agent, write_calc_case  # noqa: E402
from bench.smoke import add_smoke, apply_smoke, judged  # noqa: E402
from nightshift.experiment.config import ModelEndpoint, ModelPrice  # noqa: E402
from nightshift.gateway import ModelGateway  # noqa: E402
from nightshift.graders.scanning import ScannerSet  # noqa: E402
from nightshift.sandbox.factory import backend_for  # noqa: E402
from nightshift.sandbox.images import latest_build  # noqa: E402
from nightshift.scanners import TrialRecord, read_events  # noqa: E402
from nightshift.simulator.config import SimulatorConfig  # noqa: E402
from nightshift.simulator.embedded import running_simulator  # noqa: E402
from nightshift.suites import load_cases  # noqa: E402
from nightshift.tasks.artifacts import read_diff, trajectory_path  # noqa: E402

# an example price (USD per million tokens) to turn tokens into dollars; the simulator charges nothing
PRICE = ModelPrice(input_per_mtok=1.0, output_per_mtok=4.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="sim-medium", help="the judge's model (default sim-medium)")
    parser.add_argument("--agents", default="calc", help="'calc': every bench-calc cheat and honest agent")
    add_smoke(parser, agents="smoke")
    args = apply_smoke(parser.parse_args(argv))
    build = latest_build()
    if build is None:
        print("no sandbox image built; run: .venv/bin/python scripts/build_sandbox_image.py", file=sys.stderr)
        return 2
    backend = backend_for("bubblewrap", str(build.rootfs))
    agents = [CHEATS[0]] if args.agents == "smoke" else [a for a in [*CHEATS, *HONEST]
                                                                     if a.case == "bench-calc"]
    judge = ScannerSet.build([{"use": "judge", "settings": {"model": args.model}}])
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        suite = Path(tmp) / "suite"
        write_calc_case(suite)
        [case] = load_cases(suite)
        run_dir = Path(tmp) / "run"
        run_dir.mkdir()
        outcomes = [run_agent(a, case, backend, run_dir, i) for i, a in enumerate(agents)]
        lines, tokens_in, tokens_out, ratios, costs = [], [], [], [], []
        with running_simulator(SimulatorConfig(latency_ms=0), [suite]) as url:
            gateway = ModelGateway.from_settings(url, "sk-bench", ModelEndpoint(prices={args.model: PRICE}))
            for outcome in outcomes:
                row = outcome.row
                session = gateway.session()
                record = TrialRecord(case=case, events=read_events(trajectory_path(run_dir, row.trial_id)),
                                     diff=read_diff(run_dir, row.trial_id), status=row.status.value, model=session)
                started = time.perf_counter()
                flags = judge.scan(record)
                seconds = time.perf_counter() - started
                tokens_in.append(session.input_tokens)
                tokens_out.append(session.output_tokens)
                costs.append(session.cost_usd)
                ratios.append(seconds / row.grade_s if row.grade_s else 0.0)
                raised = ", ".join(f"{f.severity} {f.name}" for f in flags) or "-"
                lines.append(f"| {outcome.agent.name} | {'honest' if outcome.agent.honest else 'cheat'} | "
                             f"{session.input_tokens} | {session.output_tokens} | {seconds * 1000:.0f} ms | "
                             f"{ratios[-1]:.1%} | {raised} |")
    print(f"judge bench: {len(outcomes)} bench-calc trials judged by {args.model} (the simulator's judge policy) "
          f"through the gateway\n")
    print("| agent | kind | judge input tokens | output tokens | judge time | of grading time | judge flags |\n"
          "|---|---|---|---|---|---|---|")
    print("\n".join(lines))
    print(f"\nper trial: median {statistics.median(tokens_in):.0f} input tokens (max {max(tokens_in)}), median "
          f"{statistics.median(tokens_out):.0f} output tokens; ${statistics.mean(costs):.6f} at "
          f"${PRICE.input_per_mtok}/${PRICE.output_per_mtok} per million; judge time median "
          f"{statistics.median(ratios):.1%} of the trial's grading time")
    return judged(args, 0 if all(t > 0 for t in tokens_in) else 1)


if __name__ == "__main__":
    raise SystemExit(main())
