"""The contracts every part of a trial and every plugin implements: Sandbox and SandboxBackend, Harness and the
ModelClient it is given, Grader, SuiteImporter (Metric is in nightshift.metrics).

Read this first. The life of one trial (tasks/run_trial.py) only talks to these protocols, so a backend, an
agent loop or a grading scheme can change without touching the others. Plugin authors import them from
``nightshift.plugin``, which also says how each plugin is built and what it may raise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from nightshift.models import AgentOutcome, Case, ExecResult, GradeResult, Sidecar


class SandboxLimits(BaseModel):
    """Resource limits of one sandbox. Enforced by every backend; see sandbox/README.md for how."""

    cpus: float = Field(1.0, gt=0, description="CPU cores the sandbox may use.")
    memory_mb: int = Field(1024, ge=64, description="Memory limit for all processes of the sandbox.")
    pids: int = Field(256, ge=8, description="Most processes/threads alive at once (stops fork bombs).")
    disk_mb: int = Field(512, ge=1, description="Disk the sandbox may fill, /workspace and /tmp together, in MiB "
                         "(a loop-mounted ext4 per sandbox; also the largest single file).")
    output_kb: int = Field(64, ge=1, description="Captured stdout/stderr per exec; the rest is counted and dropped.")
    cpu_seconds: int = Field(600, ge=1, description="CPU seconds one exec may burn before it is killed.")


class SandboxSpec(BaseModel):
    """What to create: labels say who owns it, so the reaper can find leftovers of dead runs."""

    run_id: str
    trial_id: str
    workspace_source: Path | None = Field(None, description="Folder copied into /workspace at creation.")
    limits: SandboxLimits = SandboxLimits()
    image: str | None = Field(None, description="Docker image id this sandbox runs (a case's own image); None: "
                              "the backend's image. Bubblewrap runs the image's exported root filesystem.")
    workdir: str | None = Field(None, description="A second path where /workspace is also mounted (a Harbor "
                                "task's WORKDIR such as /app), so the task's own absolute paths reach it.")
    sidecars: list[Sidecar] = Field([], description="Service containers started beside the sandbox on a private "
                                    "network with no way out (docker backend only); reachable by name.")


@runtime_checkable
class Sandbox(Protocol):
    """An isolated place to run untrusted commands: no network, limited resources, one per trial.

    ``exec`` never raises for anything in ``command``, ``cwd`` or ``env`` (size, NUL bytes, invalid
    Unicode, a non-string): it returns an ExecResult the agent sees (sandbox/command_file.py). It raises
    only when the sandbox itself is broken, which the trial records as infra_error.
    """

    id: str
    uid: int  # the host uid all of this sandbox's commands run as: its own, leased (sandbox/uids.py)
    run_dir: Path  # host folder seen read-only inside at /run/nightshift: put a unix socket here to
    # serve this sandbox (the model proxy); docs/SANDBOX.md says what such a socket must do

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult: ...

    def write_file(self, path: str, data: bytes) -> None: ...

    def read_file(self, path: str) -> bytes: ...

    def copy_in(self, host_dir: Path, sandbox_dir: str) -> None:
        """Copy a host folder in read-only for the sandbox (used for tests at grading time)."""
        ...

    def destroy(self) -> None: ...


class SandboxBackend(Protocol):
    """Makes sandboxes. Built once per night as ``Backend(image)`` (the experiment's ``sandbox.image``: a docker
    image reference, a root filesystem folder, or 'host'); ``reap()`` runs first, then ``create`` per trial."""

    name: str

    def __init__(self, image: str) -> None: ...

    def identity(self) -> str:
        """Content identity of the root filesystem (image digest, or rootfs hash) for the manifest."""
        ...

    def create(self, spec: SandboxSpec) -> Sandbox: ...

    def reap(self, keep_run_ids: set[str] | None = None) -> int:
        """Remove sandboxes left by dead processes; returns how many were removed."""
        ...


class ModelClient(Protocol):
    """What a harness needs from the gateway: one chat completion with tools."""

    def chat(self, *, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], temperature: float,
             seed: int, max_tokens: int) -> dict[str, Any]: ...


class Harness(Protocol):
    """The agent loop under evaluation: reads the case, calls the model, runs tools, submits.

    Built once per trial as ``Harness(model, settings)``: the variant's model name and its ``harness.settings``
    validated by the class's ``Settings`` pydantic model (None when it declares none). ``run`` is called once, in
    a thread of its own, under nightshift's limits: it returns an AgentOutcome (``ended_by="submitted"``), or
    raises LimitReached (that limit's status), RequestRejected (agent_error) or GatewayError (infra_error);
    anything else it raises is agent_error with its traceback in the trajectory."""

    def __init__(self, model: str, settings: Any = None) -> None: ...

    def run(self, case: Case, sandbox: Sandbox, model: ModelClient, seed: int,
            trajectory_path: Path) -> AgentOutcome: ...


class Grader(Protocol):
    """Decides what the agent's final workspace is worth. Runs after the agent phase only."""

    def grade(self, case: Case, sandbox: Sandbox) -> GradeResult: ...


@dataclass(frozen=True)
class SuiteImporter:
    """One suite format `nightshift import-suite FORMAT [SOURCE] OUT` writes as a suite folder.

    ``write(source, out, name, **options)`` writes the folder ``out`` (case folders and suite.toml: docs/SUITES.md)
    and raises SuiteError for bad input; what it returns may say what it left out (``refused``: {item: reason},
    ``imported``: [ids]). ``source`` says what SOURCE is ('a JSONL file'; None: the format needs none);
    ``options`` are the keyword options it takes beyond (source, out, name). A plain callable with that signature
    is taken as an importer that needs a source and takes no options."""

    write: Callable[..., object]
    source: str | None
    summary: str = ""
    options: tuple[str, ...] = ()

    def __call__(self, source: Path | None, out: Path, name: str, **options: Any) -> object:
        return self.write(source, out, name, **options)
