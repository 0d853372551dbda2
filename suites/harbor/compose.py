"""A task's docker-compose file: which service is the task container, and which are sidecars.

Harbor names the task container ``main``, terminal-bench ``client``; a file with one service uses
that one. The other services (a database, a web server the tests talk to) become sidecars: their
images are built or resolved like the task's own, and the docker backend starts them beside the
sandbox on a private network (sandbox/sidecars.py). What cannot work offline is refused by name.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
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


def _env(value: object) -> dict[str, str]:
    if isinstance(value, dict):
        return {str(k): "" if v is None else str(v) for k, v in value.items()}
    if isinstance(value, list):
        return dict(str(item).partition("=")[::2] for item in value)
    return {}


def sidecar_specs(compose: Path, build_image: Callable[[str, Path | None, str], str]) -> list[dict]:
    """One [[sidecars]] entry per service besides the task container, its image built or resolved by
    ``build_image(name, context, dockerfile)`` / found locally; refused when it cannot work offline."""
    spec = yaml.safe_load(compose.read_text()) or {}
    services = spec.get("services") or {}
    found = []
    for name in sidecars(compose):
        service = services[name] or {}
        where = f"{compose} services.{name}"
        if any(isinstance(v, str) and ":" in v and v.split(":")[0].startswith((".", "/", "$"))
               for v in service.get("volumes") or []):
            raise TaskRefused(f"{where} field 'volumes': host folders cannot be mounted into a sidecar; copy the "
                              f"files into its image (a build: context with a Dockerfile)")
        build = service.get("build")
        if build is not None:
            context = compose.parent / (build if isinstance(build, str) else build.get("context", "."))
            dockerfile = context / ("Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile"))
            image = build_image(name, context, str(dockerfile))
        elif service.get("image"):
            image = build_image(name, None, str(service["image"]))
        else:
            raise TaskRefused(f"{where}: neither 'image' nor 'build'; say what the service runs")
        command = service.get("command")
        if isinstance(command, str):
            command = shlex.split(command)
        found.append({"name": name, "image": image, "command": command, "env": _env(service.get("environment"))})
    return found
