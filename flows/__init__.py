"""Prefect flows: nightly-eval (the parent flow of one night) and nightly-shard (a child flow that runs one
shard of a night's trials on a work pool).

Flows orchestrate and hold little logic: they call experiment/ for pins and trials, planner/ for order
and ETA, tasks/ for the trials themselves and analysis/ for the numbers, and publish progress and results
as artifacts.
"""
