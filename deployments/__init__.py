"""Deployments: the local Prefect server, work pools and workers, job templates.

Owns how nightshift's flows are served and scheduled. Must not contain evaluation logic.
"""
