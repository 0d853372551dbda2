"""A task's docker-compose file: which service is the task container, and which are sidecars.

Harbor names the task container ``main``, terminal-bench ``client``; a file with one service uses
that one. nightshift runs one container per trial with no network at all, so a task whose compose
file defines other services (a database, a web server the tests talk to) is refused with their
names rather than run without them.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from nightshift.suites.harbor.task import TaskRefused

MAIN_NAMES = ("main", "client")


def sidecars(compose: Path) -> list[str]:
    """Names of the services other than the task container (empty: a single-container task)."""
    try:
        spec = yaml.safe_load(compose.read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise TaskRefused(f"{compose}: not valid YAML ({exc}); fix the syntax") from exc
    services = spec.get("services") if isinstance(spec, dict) else None
    if not isinstance(services, dict) or not services:
        raise TaskRefused(f"{compose}: field 'services' is missing or empty; name the task container "
                          f"(main, or client for terminal-bench)")
    if len(services) == 1:
        return []
    main = next((name for name in MAIN_NAMES if name in services), None)
    if main is None:
        raise TaskRefused(f"{compose}: field 'services' has {sorted(services)} but none is the task container "
                          f"('main' for Harbor, 'client' for terminal-bench). Fix: rename the task's service")
    return sorted(name for name in services if name != main)


def refuse_sidecars(compose: Path) -> None:
    others = sidecars(compose)
    if others:
        raise TaskRefused(f"{compose}: field 'services' defines sidecar containers {others} besides the task "
                          f"container; nightshift runs one container per trial with no network, so this "
                          f"multi-container task is refused. Fix: install what the tests need from "
                          f"{', '.join(others)} into the task's Dockerfile, or keep the task out of the suite")
