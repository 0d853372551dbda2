"""Say in one line which limit stopped a command, so the agent and the trajectory both see why.

Both backends append these lines to an exec's stderr, prefixed ``[sandbox]``: a bare exit code 137
does not tell an agent (or a person reading the trajectory) whether it hit the memory limit or the
timeout. The counters come from the sandbox's cgroups, read before and after the exec.
"""

from __future__ import annotations

from nightshift.contracts import SandboxLimits

KILLED = 137  # 128 + SIGKILL: what a shell reports for a killed command, on both backends
_SIGNALS = {128 + 24: "CPU-time limit ({cpu}s, RLIMIT_CPU) exceeded: killed by SIGXCPU",
            128 + 25: "file-size limit ({disk} MiB, RLIMIT_FSIZE) exceeded: killed by SIGXFSZ"}


def limit_notices(limits: SandboxLimits, *, exit_code: int, timed_out: bool, timeout_s: float,
                  before: dict[str, int], after: dict[str, int], disk_free: tuple[int | None, int | None]
                  ) -> list[str]:
    """Notes for the limits this exec ran into; ``disk_free`` is free bytes before and after it."""
    notes = []
    if timed_out:
        notes.append(f"timed out after {timeout_s:g}s: every process of this command was killed")
    if after.get("oom_kill", 0) > before.get("oom_kill", 0):
        notes.append(f"out of memory: a process was killed at the {limits.memory_mb} MiB memory limit")
    if after.get("pids_max", 0) > before.get("pids_max", 0):
        notes.append(f"process limit ({limits.pids}) reached: some forks were refused")
    if exit_code in _SIGNALS:
        notes.append(_SIGNALS[exit_code].format(cpu=limits.cpu_seconds, disk=limits.disk_mb))
    full_before, full_after = ((free is not None and free < 1024 * 1024) for free in disk_free)
    if full_after and (exit_code != 0 or not full_before):
        notes.append(f"disk quota full: /workspace and /tmp share {limits.disk_mb} MiB")
    return notes


def with_notices(stderr: str, notes: list[str]) -> str:
    if not notes:
        return stderr
    lines = "\n".join(f"[sandbox] {note}" for note in notes)
    return f"{stderr}\n{lines}" if stderr and not stderr.endswith("\n") else f"{stderr}{lines}"
