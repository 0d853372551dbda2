"""The capacity planner: how long a night will take, what bounds it, and in which order trials run.

Owns one model of a night (``model``): each trial's predicted duration, tokens, requests and GPU
seconds (``TrialLoad``) against the concurrency, the quota and the cards (``Capacity``) → the lower
bounds, the binding constraint and a predicted makespan from a fluid simulation of the slots. The
same model answers ``nightshift plan`` (``command``), gives the ETA of a night in flight
(``progress``), and is checked against what happened by bench/night_bench.py. ``history`` learns
per-case predictions from last night's Parquet; ``schedule`` orders trials longest-predicted-first
with every variant of a case kept together, and deals them into shards.

Must not run trials, call Prefect or touch the model endpoint: it reads numbers and returns numbers.
"""

from nightshift.planner.history import History, learn_history
from nightshift.planner.model import Capacity, NightForecast, TrialLoad, concurrency_needed, forecast, lower_bounds
from nightshift.planner.progress import NightClock
from nightshift.planner.schedule import deal_shards, order_trials

__all__ = ["Capacity", "History", "NightClock", "NightForecast", "TrialLoad", "concurrency_needed", "deal_shards",
           "forecast", "learn_history", "lower_bounds", "order_trials"]
