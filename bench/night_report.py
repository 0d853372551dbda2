"""The text report of bench/night_bench.py: makespan against its lower bound, overhead, memory, planner."""

from __future__ import annotations


def _hm(seconds: float, minute_s: float) -> str:
    minutes = seconds / minute_s
    return f"{int(minutes // 60)}h{int(minutes % 60):02d}m"


def bound_of(raw: dict) -> tuple[float, str]:
    """The lower bound of the night that ran: the largest of the planner's bounds on tonight's true loads and
    the quota bounds on what the simulator really charged (tokens) and served (requests)."""
    bounds = dict(raw["bounds"])
    stats = raw["stats"]
    bounds["tokens/min"] = max(bounds.get("tokens/min", 0.0), 60 * stats["charged_tokens"] / raw["tpm"])
    bounds["requests/min"] = max(bounds.get("requests/min", 0.0), 60 * stats["by_status"].get("200", 0) / raw["rpm"])
    name = max(bounds, key=lambda k: bounds[k])
    return bounds[name], name


def eta_errors(raw: dict) -> list[tuple[float, float]]:
    """(fraction done, error of the ETA given then as a fraction of the whole night) at about 10..90 %."""
    end = raw["started"] + raw["makespan_s"]
    estimates = raw["estimates"]
    if not estimates:
        return []
    total = raw["rows"] or 1
    picked = []
    for target in (0.1, 0.25, 0.5, 0.75, 0.9):
        when, done, left = min(estimates, key=lambda e: abs(e[1] / total - target))
        picked.append((done / total, (when + left - end) / raw["makespan_s"]))
    return picked


def server_line(server: dict) -> str:
    """What the Prefect server kept of the night, and whether its log says it dropped anything."""
    line = (f"Prefect server ({server['mode']}): {server['task_runs']:,} task runs recorded and "
            f"{server['task_run_events']:,} task-run events persisted (3 a task run expected) after catching up for "
            f"{server['catch_up_s']:.0f} s; at the night's end {server['at_end_task_runs']:,} and "
            f"{server['at_end_task_run_events']:,}; database {server['db_mib']:.0f} MiB; log: "
            f"{server['dropped_lines']} lines about dropped messages, {server['unavailable_lines']} with 503")
    return line + (f"\n  first: {server['dropped_example']}" if server["dropped_example"] else "")


def report(raw: dict, minute_s: float) -> str:
    makespan = raw["makespan_s"]
    bound, binding = bound_of(raw)
    stats = raw["stats"]
    ok = stats["by_status"].get("200", 0)
    rejected = stats["by_status"].get("429", 0)
    lines = [
        f"night bench: {raw['rows']:,} trials at concurrency {raw['args']['concurrency']}; one simulated minute = "
        f"{minute_s} s; quota {raw['rpm']:,.0f} requests/min, {raw['tpm']:,.0f} tokens/min (compressed time)",
        f"  trials: mean {raw['mean_trial_s'] / minute_s:.1f} min, longest bound "
        f"{raw['bounds']['longest trial'] / minute_s:.0f} min (simulated)",
        f"makespan        {makespan:8.1f} s  ({_hm(makespan, minute_s)} simulated)",
        f"lower bound     {bound:8.1f} s  ({binding})   makespan / bound: {bound / makespan:.3f} of the bound "
        f"reached (goal >= 0.95)",
        "  bounds: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(raw["bounds"].items(), key=lambda kv: -kv[1]))
        + f"; tokens charged by the simulator {60 * stats['charged_tokens'] / raw['tpm']:.1f} s",
        f"orchestration overhead per trial: {raw['per_trial_ms']:.1f} ms mean gap between trials on a slot "
        f"(p50 {raw['p50_ms']:.1f} ms, p99 {raw['p99_ms']:.1f} ms) = "
        f"{raw['per_trial_ms'] / 10 / raw['mean_trial_s']:.2f} % of a mean trial; the last slot's first trial "
        f"started {raw['max_first_start_s']:.2f} s in",
        f"quota: {ok:,} requests served, {rejected} rejected (429); trials waited {raw['quota_wait_s']:.0f} s for "
        f"quota in total ({raw['quota_wait_s'] / max(1e-9, raw['mean_trial_s'] * raw['rows']):.1%} of all work); "
        f"trial bodies ran {raw['body_overrun_s']:.0f} s longer than planned in total, quota waits included; the "
        f"simulator charged >= 95 % of the tokens/min quota in {raw['tokens_saturated']:.0%} of 5-s windows "
        f"(requests/min: {raw['requests_saturated']:.0%})",
        f"peak memory: bench process (flow, {raw['args']['concurrency']} threads, gateway) {raw['bench_mib']:.0f} MiB, "
        f"Prefect server {raw['server_mib']:.0f} MiB, simulator {raw['simulator_mib']:.0f} MiB"
        + (f", Redis {raw['server']['redis_mib']:.0f} MiB, PostgreSQL {raw['server']['postgres_mib']:.0f} MiB "
           "(proportional set size at the end)" if "redis_mib" in raw["server"] else ""),
        server_line(raw["server"]),
        f"planner before the night (last night's history): {raw['forecast_s']:.1f} s predicted vs {makespan:.1f} s "
        f"({(raw['forecast_s'] - makespan) / makespan:+.1%}); its bound {raw['forecast_bound_s']:.1f} s; "
        f"slowed by " + (", ".join(f"{k} {v:.0f} s" for k, v in raw["forecast_slowed"].items()) or "nothing"),
        f"  the same model on tonight's true loads: {raw['model_on_actual_s']:.1f} s in the order run, "
        f"{raw['model_listed_order_s']:.1f} s in the listed (seed-major) order",
        "  ETA in the progress artifact, error against the real end (fraction of the night): "
        + ", ".join(f"at {done:.0%} {err:+.1%}" for done, err in eta_errors(raw)),
    ]
    return "\n".join(lines)
