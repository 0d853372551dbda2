"""Prefect tasks: the life of one trial (run_trial) and writing its results.

Owns: sandbox → harness → grader → result row for one trial, the per-trial result file, and the
run's Parquet file built from those files. Must not decide which trials exist (experiment/ does)
or compute scores (analysis/ does).
"""
