"""Prefect flows: nightly-eval (the parent flow of one night).

Flows orchestrate and hold little logic: they call experiment/ for pins and trials, tasks/ for the
trials themselves and analysis/ for the numbers, and publish progress and results as artifacts.
"""
