"""A case's own sandbox: the image it pins, its workdir alias and its limits, and whether it can run here.

Limits rule (docs/SUITES.md): a limit the case states (a Harbor task's [environment] cpus, memory,
storage) replaces the run's sandbox limit for that case. CPUs are clamped to the host's cores (they
change speed, not the answer); memory above what the host has is refused by validation.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from nightshift.contracts import SandboxBackend, SandboxLimits, SandboxSpec
from nightshift.models import Case


def host_memory_mb() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)


def case_limits(case: Case, run_limits: SandboxLimits) -> SandboxLimits:
    """The run's sandbox limits with the case's own stated limits in their place."""
    stated = case.limits
    update: dict[str, float | int] = {}
    if stated.cpus is not None:
        update["cpus"] = min(stated.cpus, float(os.cpu_count() or 1))
    if stated.memory_mb is not None:
        update["memory_mb"] = stated.memory_mb
    if stated.disk_mb is not None:
        update["disk_mb"] = stated.disk_mb
    return run_limits.model_copy(update=update)


def case_sandbox_spec(case: Case, run_id: str, trial_id: str, run_limits: SandboxLimits) -> SandboxSpec:
    """What to create for one trial (or one validation run) of ``case``."""
    return SandboxSpec(run_id=run_id, trial_id=trial_id, workspace_source=case.workspace_dir,
                       limits=case_limits(case, run_limits), image=case.image,
                       workdir=case.workdir, sidecars=case.sidecars)


def _is_docker_id(image: str | None) -> bool:
    return bool(image) and str(image).startswith("sha256:")


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
    if case.limits.memory_mb is not None and case.limits.memory_mb > host_memory_mb():
        return (f"{case.root / 'case.toml'}: field 'limits.memory_mb' = {case.limits.memory_mb} is more than this "
                f"host's {host_memory_mb()} MiB; run it on a bigger machine or lower the task's memory")
    if case.sidecars and backend.name != "docker":
        names = [s.name for s in case.sidecars]
        return (f"needs sidecar containers {names} beside its sandbox; only sandbox.backend docker starts them "
                f"(validate with --backend docker or run with sandbox.backend: docker)")
    if case.image is None:
        return None
    if not image_present(case.image):
        if _is_docker_id(case.image):
            return (f"needs image {case.image} (pinned by {case.root / 'case.toml'}), which is not present on this "
                    f"docker engine; re-run `nightshift import-suite harbor` here to build it, or docker load it")
        return (f"needs image {case.image}, which is not present locally; build it first (for SWE-bench: the "
                f"SWE-bench harness builds sweb.eval.* instance images), then run with sandbox.backend: docker")
    if backend.name != "docker" and not Path(case.image).is_dir() and not _is_docker_id(case.image):
        return f"needs docker image {case.image}; backend {backend.name} cannot run it (use sandbox.backend: docker)"
    return None
