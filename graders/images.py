"""Whether the image a case requires is present on this machine (SWE-bench instance images)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from nightshift.contracts import SandboxBackend
from nightshift.models import Case


def image_present(image: str) -> bool:
    """A local root filesystem folder, or a Docker image the local daemon already has (never pulled)."""
    if Path(image).is_dir() and (Path(image) / "usr").is_dir():
        return True
    if shutil.which("docker") is None:
        return False
    try:
        probe = subprocess.run(["docker", "image", "inspect", "--format", "{{.Id}}", image],
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def image_problem(case: Case, backend: SandboxBackend) -> str | None:
    """Why this case cannot run on this backend here, or None when it can."""
    if case.image is None:
        return None
    if not image_present(case.image):
        return (f"needs image {case.image}, which is not present locally; build it first (for SWE-bench: the "
                f"SWE-bench harness builds sweb.eval.* instance images), then run with sandbox.backend: docker")
    if backend.name != "docker" and not Path(case.image).is_dir():
        return f"needs docker image {case.image}; backend {backend.name} cannot run it (use sandbox.backend: docker)"
    return None
