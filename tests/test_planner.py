"""The capacity planner: bounds, the fluid simulation, concurrency needed, history, ordering, ETA, `plan`."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from nightshift.cli import main
from nightshift.cli.plan import parse_deadline
from nightshift.models import TrialResult
from nightshift.planner import (
    Capacity,
    NightClock,
    TrialLoad,
    concurrency_needed,
    deal_shards,
    forecast,
    learn_history,
    lower_bounds,
    order_trials,
)
from nightshift.planner.model import simulate
from nightshift.tasks.results import write_parquet


def test_lower_bounds_name_every_constraint() -> None:
    loads = [TrialLoad(600, tokens=60_000, requests=10, gpu_s=30)] * 100
    bounds = lower_bounds(loads, Capacity(10, requests_per_minute=100, tokens_per_minute=600_000, gpu_cards=2))
    assert bounds == {"concurrency": 6000, "longest trial": 600, "tokens/min": 600, "requests/min": 600,
                      "timing slots": 1500}
    assert lower_bounds(loads, Capacity(10))["concurrency"] == 6000
    assert lower_bounds(loads, Capacity(10))["timing slots"] == float("inf")  # timing work and no slots


def test_simulation_of_equal_trials_is_exact() -> None:
    sim = simulate([TrialLoad(60)] * 10, Capacity(4))
    assert sim.makespan_s == pytest.approx(180)  # three waves of 4, 4, 2
    assert sim.finish_s[:4] == pytest.approx([60] * 4) and sim.finish_s[-1] == pytest.approx(180)


def test_a_quota_that_binds_all_night_sets_the_makespan() -> None:
    loads = [TrialLoad(60, tokens=10_000)] * 100
    night = forecast(loads, Capacity(50, tokens_per_minute=100_000))
    assert night.binding == "tokens/min"
    assert night.makespan_s == pytest.approx(night.bounds["tokens/min"], rel=0.01)  # 600 s, not 120 s


def test_a_quota_that_binds_part_of_the_night_is_reported() -> None:
    heavy = [TrialLoad(60, tokens=20_000)] * 20      # run first: 20 × 20k tokens/min asked, 200k given
    light = [TrialLoad(60, tokens=1_000)] * 200
    night = forecast(heavy + light, Capacity(20, tokens_per_minute=200_000))
    assert night.binding == "concurrency"
    assert night.makespan_s > night.lower_bound_s + 50  # the heavy wave took twice its time
    assert "tokens/min" in night.also_binding()


def test_concurrency_needed_is_the_smallest_that_meets_the_deadline() -> None:
    loads = [TrialLoad(15 * 60)] * 5000  # the night: 5,000 × 15 min in 8 h
    needed = concurrency_needed(loads, Capacity(1), 8 * 3600)
    assert needed == 157  # ceil(5000 / 157) = 32 waves × 15 min = 8 h; 156 needs 33 waves
    assert forecast(loads, Capacity(needed)).makespan_s <= 8 * 3600 < forecast(loads, Capacity(156)).makespan_s


def test_no_concurrency_beats_the_quota_or_the_longest_trial() -> None:
    loads = [TrialLoad(60, tokens=100_000)] * 100
    assert concurrency_needed(loads, Capacity(1, tokens_per_minute=100_000), 3600) is None  # needs 100 min
    assert concurrency_needed([TrialLoad(5 * 3600)], Capacity(1), 4 * 3600) is None


def _spec(case: str, variant: str, seed: int):
    from types import SimpleNamespace

    return SimpleNamespace(case=SimpleNamespace(id=case), variant=SimpleNamespace(name=variant), seed=seed)


def _listed(cases: list[str], variants: list[str], seeds: list[int]) -> list:
    return [_spec(c, v, s) for s in seeds for c in cases for v in variants]


def test_longest_first_keeps_every_variant_of_a_case_together() -> None:
    length = {"a": 1, "b": 50, "c": 5, "d": 20}
    specs = _listed(list(length), ["x", "y", "z"], [1, 2])
    ordered = order_trials(specs, lambda s: length[s.case.id] * (2 if s.variant.name == "z" else 1))
    assert [s.case.id for s in ordered[::3]] == ["b", "b", "d", "d", "c", "c", "a", "a"]
    for cut in range(0, len(ordered) + 1, 3):  # a night cut after any whole block compares every variant
        seen = {(s.case.id, s.seed) for s in ordered[:cut]}
        for case, seed in seen:
            assert {s.variant.name for s in ordered[:cut] if (s.case.id, s.seed) == (case, seed)} == {"x", "y", "z"}
    assert [s.variant.name for s in ordered[:3]] == ["x", "y", "z"]


def test_without_history_the_listed_order_is_kept() -> None:
    specs = _listed(["a", "b", "c"], ["x", "y"], [1, 2, 3])
    assert order_trials(specs, lambda s: 600.0) == specs


def test_longest_first_shortens_a_long_tailed_night() -> None:
    rng = random.Random(7)
    loads = [TrialLoad(rng.lognormvariate(6.4, 0.8)) for _ in range(2000)]
    as_listed = forecast(loads, Capacity(64)).makespan_s
    longest_first = forecast(order_trials(loads, lambda t: t.duration_s, block=id), Capacity(64))
    assert longest_first.makespan_s < as_listed
    assert longest_first.makespan_s <= 1.02 * longest_first.lower_bound_s


def test_shards_get_whole_blocks_and_equal_work() -> None:
    length = {f"case{i}": 10 + i for i in range(40)}
    specs = order_trials(_listed(list(length), ["x", "y"], [1, 2]), lambda s: length[s.case.id])
    shards = deal_shards(specs, 3, lambda s: length[s.case.id])
    assert sorted(id(s) for shard in shards for s in shard) == sorted(id(s) for s in specs)
    work = [sum(length[s.case.id] for s in shard) for shard in shards]
    assert max(work) - min(work) <= max(length.values()) * 2
    for shard in shards:
        keys = [(s.seed, s.case.id) for s in shard]
        assert all(keys.count(k) == 2 for k in keys)  # both variants of a block in the same shard
        assert shard == sorted(shard, key=lambda s: -length[s.case.id])  # each shard is longest-first too


def _row(case: str, variant: str, seed: int, duration: float, tokens: int, status: str = "resolved",
         quota_wait: float = 0.0) -> TrialResult:
    return TrialResult(trial_id=f"{case}-{variant}-{seed}", run_id="last", case_id=case, suite="s", domain="d",
                       split="public", variant=variant, model="m", model_version="m1", seed=seed, status=status,
                       score=1.0, model_calls=tokens // 1000, input_tokens=tokens - 100, output_tokens=100,
                       duration_s=duration, quota_wait_s=quota_wait)


def test_history_learns_per_case_and_variant_means(tmp_path: Path) -> None:
    rows = [_row("slow", "x", 1, 900, 50_000), _row("slow", "x", 2, 1100, 70_000, quota_wait=100),
            _row("slow", "y", 1, 400, 20_000), _row("fast", "x", 1, 60, 4_000),
            _row("fast", "x", 2, 5000, 1, status="infra_error")]
    parquet = write_parquet(rows, tmp_path / "results.parquet")
    history = learn_history([tmp_path])  # a run folder works as well as the file
    assert history.predict("slow", "x") == TrialLoad(duration_s=950, tokens=60_000, requests=60)
    assert history.predict("slow", "z").duration_s == pytest.approx((900 + 1000 + 400) / 3)  # case mean
    assert history.predict("fast", "x").duration_s == 60  # the infra error is not evidence
    assert history.predict("never-seen", "x").duration_s == history.default.duration_s > 60
    assert learn_history([parquet]).rows == 4


def test_clock_knows_which_trials_run_and_predicts_the_end() -> None:
    loads = [TrialLoad(100)] * 6
    clock = NightClock(loads, Capacity(2), started=0.0, prior_weight=0.0)
    assert clock.start_of(1) == 0.0 and clock.start_of(2) is None
    clock.finished(0, now=100)
    assert clock.start_of(2) == 100
    clock.finished(1, now=100)
    assert clock.remaining_s(now=150) == pytest.approx(50 + 100)  # two with 50 s left, then the last two
    clock.finished(2, now=200)
    clock.finished(3, now=200)
    assert clock.scale() == pytest.approx(1.0)
    assert clock.remaining_s(now=250) == pytest.approx(50)
    assert "trials done: 4/6" in clock.line(now=250)


def test_clock_learns_that_trials_run_slower_than_predicted() -> None:
    clock = NightClock([TrialLoad(10)] * 20, Capacity(5), started=0.0, prior_weight=0.0)
    for i in range(5):
        clock.finished(i, now=20.0)
    assert clock.scale() == pytest.approx(2.0)
    assert clock.remaining_s(now=20.0) == pytest.approx(3 * 20)  # three waves of 5, each twice as long


def test_deadlines_parse_as_spans_or_clock_times() -> None:
    from datetime import UTC, datetime

    start = datetime(2026, 11, 29, 23, 0, tzinfo=UTC)
    assert parse_deadline("8h", start) == 8 * 3600
    assert parse_deadline("7h30m", start) == 7.5 * 3600
    assert parse_deadline("07:00", start) == 8 * 3600  # tomorrow morning
    with pytest.raises(ValueError, match="8h"):
        parse_deadline("soon", start)


def test_plan_command_prints_concurrency_binding_and_finish(capsys: pytest.CaptureFixture) -> None:
    code = main(["plan", "--trials", "5000", "--minutes-per-trial", "15", "--deadline", "8h",
                 "--tokens-per-trial", "150000", "--requests-per-trial", "20", "--rpm", "500",
                 "--tpm", "2000000", "--concurrency", "160"])
    out = capsys.readouterr().out
    assert code == 0
    assert "concurrency needed: 157" in out
    assert "binding constraint: concurrency" in out
    assert "tokens/min" in out and "requests/min" in out and "predicted finish" in out


def test_plan_command_says_when_the_quota_makes_the_deadline_impossible(capsys: pytest.CaptureFixture) -> None:
    code = main(["plan", "--trials", "5000", "--minutes-per-trial", "15", "--deadline", "8h",
                 "--tokens-per-trial", "300000", "--tpm", "2000000", "--concurrency", "160"])
    out = capsys.readouterr().out
    assert code == 1
    assert "none meets the deadline" in out and "tokens/min alone needs 12h30m" in out


def test_plan_command_learns_from_last_nights_parquet(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    rows = [_row(f"case{i}", v, s, 60 * (5 + i), 10_000) for i in range(10) for v in "xy" for s in (1, 2)]
    parquet = write_parquet(rows, tmp_path / "results.parquet")
    code = main(["plan", "--history", str(parquet), "--trials", "400", "--deadline", "1h", "--concurrency", "8"])
    out = capsys.readouterr().out
    assert code == 0
    assert "learned from" in out and "10 cases" in out and "longest 14m00s" in out


def test_clock_is_not_fooled_by_the_first_trials_to_end_being_the_short_ones() -> None:
    clock = NightClock([TrialLoad(10)] * 30, Capacity(10), started=0.0, prior_weight=0.0)
    for i in range(5):  # half the first wave ended early ...
        clock.finished(i, now=5.0)
    assert clock.scale() == pytest.approx(0.5)
    # ... but the other half is still running at 15 s: the night is slower than predicted, not faster
    assert clock.scale(now=15.0) >= 1.0  # each has run at least 15 s of a predicted 10
    assert clock.remaining_s(now=15.0) >= 2 * 10  # the 15 trials not started take two waves at least


def test_plan_command_counts_an_experiments_trials_and_learns_from_its_last_run(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cases = ["py-bugfix-slugify", "sh-csv-column-sum", "dt-jsonl-daily-summary"]
    exp = tmp_path / "planned.yaml"
    exp.write_text(f"name: planned\ncases: {cases}\nvariants: [{{name: a, model: sim-strong}}, "
                   f"{{name: b, model: sim-weak}}]\nseeds: [1, 2, 3]\nconcurrency: 2\noutput_dir: out\n"
                   f"model: {{requests_per_minute: 60, share: 0.5}}\n")
    rows = [_row(c, v, 1, 600 if c == "sh-csv-column-sum" else 60, 1000) for c in cases for v in "ab"]
    write_parquet(rows, tmp_path / "out" / "planned-0123456789ab" / "results.parquet")
    assert main(["plan", "--experiment", str(exp), "--deadline", "2h"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("18 trials") and "planned-0123456789ab" in out
    assert "quota: 30 requests/min" in out  # the experiment's quota times its share
    assert "at concurrency 2: predicted finish in 36m00s" in out  # (6 × 10 min + 12 × 1 min) / 2 slots


def test_predictions_from_history_give_way_to_evidence_gradually() -> None:
    loads = [TrialLoad(10)] * 40  # 400 s predicted; the prior counts as 100 s run as predicted
    clock = NightClock(loads, Capacity(10), started=0.0)
    assert clock.scale() == 1.0
    for i in range(10):
        clock.finished(i, now=20.0)  # the first wave took twice its prediction
    assert clock.scale() == pytest.approx((200 + 100) / (100 + 100))
    for i in range(10, 40):
        clock.finished(i, now=20.0 + 20 * (1 + (i - 10) // 10))
    assert clock.scale() == pytest.approx((800 + 100) / (400 + 100))


def test_plan_says_the_tokens_per_minute_a_night_needs_dates_its_times_and_names_a_default(
        capsys: pytest.CaptureFixture) -> None:
    """The seed's own arithmetic: 5,000 trials × 200k tokens in 8 h ≈ 2.08M tokens/min."""
    main(["plan", "--trials", "5000", "--minutes-per-trial", "12", "--tokens-per-trial", "200000",
          "--deadline", "8h"])
    out = capsys.readouterr().out
    assert "needs 2,083,333 tokens/min" in out
    assert "no --concurrency and no experiment file: evaluating concurrency 1" in out
    assert re.search(r"predicted finish in \S+ \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", out)
