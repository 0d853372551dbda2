"""Read one Harbor (task.toml) or terminal-bench (task.yaml) task folder into a ``HarborTask``.

Only reading and refusing happen here: every refusal is a ``TaskRefused`` naming the task folder,
the file and field, and the fix. Building the environment and writing the case are elsewhere.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from nightshift.errors import SuiteError

DEFAULT_MAX_STEPS = 40


class TaskRefused(SuiteError):
    """This task cannot become a case; the message says where and how to fix it."""


@dataclass
class Resources:
    """What the task asks of its container ([environment] in task.toml); None: not stated."""

    cpus: float | None = None
    memory_mb: int | None = None
    disk_mb: int | None = None
    allow_internet: bool = False
    gpus: int = 0


@dataclass
class HarborTask:
    folder: Path
    id: str
    format: str  # "harbor" (task.toml) or "terminal-bench" (task.yaml)
    instruction: str
    domain: str
    agent_timeout_s: float
    test_timeout_s: float
    max_steps: int
    test_script: Path
    solution: str
    dockerfile: Path | None = None
    compose: Path | None = None
    docker_image: str | None = None
    build_timeout_s: float = 600.0
    resources: Resources = field(default_factory=Resources)
    verifier_env: dict[str, str] = field(default_factory=dict)

    @property
    def meta_file(self) -> Path:
        return self.folder / ("task.toml" if self.format == "harbor" else "task.yaml")

    @property
    def context(self) -> Path:
        """The docker build context: the folder the Dockerfile is in."""
        return self.dockerfile.parent if self.dockerfile else self.folder


def slug(name: str) -> str:
    value = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not value:
        raise TaskRefused(f"task folder {name!r}: cannot make a case id from its name; rename it")
    return value


def is_task(folder: Path) -> bool:
    return folder.is_dir() and ((folder / "task.toml").is_file() or (folder / "task.yaml").is_file())


def size_mb(value: object, where: str) -> int | None:
    """'2G', '512M', '2Gi', 2048 (MB) -> MiB; None stays None."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value)
    match = re.fullmatch(r"\s*([0-9.]+)\s*([KMGT]?)i?B?\s*", str(value), re.IGNORECASE)
    if not match:
        raise TaskRefused(f"{where}: {value!r} is not a size; write it like \"2G\", \"512M\" or a number of MB")
    scale = {"": 1, "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}[match[2].upper()]
    return max(1, int(float(match[1]) * scale))


def _number(table: dict, key: str, default: float, where: str) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise TaskRefused(f"{where} field '{key}': {value!r} is not a positive number of seconds; fix the value")
    return float(value)


def read_task(folder: Path, max_steps: int = DEFAULT_MAX_STEPS) -> HarborTask:
    """Either format; ``max_steps`` is the suite's default when the task does not state one."""
    if (folder / "task.toml").is_file():
        return _read_toml(folder, max_steps)
    return _read_yaml(folder, max_steps)


def _read_toml(folder: Path, max_steps: int) -> HarborTask:
    meta_file = folder / "task.toml"
    try:
        meta = tomllib.loads(meta_file.read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TaskRefused(f"{meta_file}: not valid TOML ({exc}); fix the syntax") from exc
    if meta.get("steps") or (folder / "steps").is_dir():
        where = "[[steps]]" if meta.get("steps") else "the steps/ folder"
        raise TaskRefused(f"{folder}: a multi-step task ({where} in {meta_file.name}); nightshift grades one "
                          f"instruction per case, so it is refused. Fix: import each step as its own task folder")
    if not (folder / "instruction.md").is_file():
        raise TaskRefused(f"{folder / 'instruction.md'}: missing; a Harbor task (task.toml) keeps the agent's "
                          f"instruction there. Fix: add instruction.md")
    agent, verifier = meta.get("agent", {}), meta.get("verifier", {})
    env = meta.get("environment", {})
    where = f"{meta_file} [environment]"
    resources = Resources(
        cpus=float(env["cpus"]) if "cpus" in env else None,
        memory_mb=size_mb(env.get("memory_mb", env.get("memory")), f"{where} field 'memory'"),
        disk_mb=size_mb(env.get("storage_mb", env.get("storage")), f"{where} field 'storage'"),
        allow_internet=bool(env.get("allow_internet", False)), gpus=int(env.get("gpus", 0) or 0))
    task = HarborTask(
        folder=folder, id=slug(folder.name), format="harbor", instruction=(folder / "instruction.md").read_text(),
        domain=str(meta.get("metadata", {}).get("category") or "terminal"),
        agent_timeout_s=_number(agent, "timeout_sec", 600, f"{meta_file} [agent]"),
        test_timeout_s=_number(verifier, "timeout_sec", 300, f"{meta_file} [verifier]"),
        max_steps=int(agent.get("max_steps", max_steps)),
        test_script=folder / "tests" / "test.sh", solution=_solution(folder, [folder / "solution" / "solve.sh"]),
        dockerfile=_first(folder / "environment" / "Dockerfile"),
        compose=_first(*(folder / "environment" / n for n in ("docker-compose.yaml", "docker-compose.yml"))),
        docker_image=env.get("docker_image"), build_timeout_s=float(env.get("build_timeout_sec", 600)),
        resources=resources, verifier_env={str(k): str(v) for k, v in verifier.get("env", {}).items()})
    return _checked(task)


def _read_yaml(folder: Path, max_steps: int) -> HarborTask:
    meta_file = folder / "task.yaml"
    try:
        meta = yaml.safe_load(meta_file.read_text()) or {}
    except (OSError, yaml.YAMLError, UnicodeDecodeError) as exc:
        raise TaskRefused(f"{meta_file}: not valid YAML ({exc}); fix the syntax") from exc
    if not isinstance(meta, dict) or not meta.get("instruction"):
        raise TaskRefused(f"{meta_file}: field 'instruction' is missing; a terminal-bench task states the agent's "
                          f"instruction there. Fix: add it")
    task = HarborTask(
        folder=folder, id=slug(folder.name), format="terminal-bench", instruction=str(meta["instruction"]),
        domain=str(meta.get("category") or "terminal"),
        agent_timeout_s=_number(meta, "max_agent_timeout_sec", 600, str(meta_file)),
        test_timeout_s=_number(meta, "max_test_timeout_sec", 300, str(meta_file)),
        max_steps=int(meta.get("max_steps", max_steps)),
        test_script=folder / "run-tests.sh",
        solution=_solution(folder, [folder / "solution.sh"], folder / "solution.yaml"),
        dockerfile=_first(folder / "Dockerfile"),
        compose=_first(folder / "docker-compose.yaml", folder / "docker-compose.yml"))
    return _checked(task)


def _checked(task: HarborTask) -> HarborTask:
    if not task.test_script.is_file():
        name = "tests/test.sh" if task.format == "harbor" else "run-tests.sh"
        raise TaskRefused(f"{task.test_script}: missing; a {task.format} task is verified by {name}. Fix: add it")
    if task.resources.gpus > 0:
        raise TaskRefused(f"{task.meta_file} [environment] field 'gpus' = {task.resources.gpus}: nightshift "
                          f"sandboxes have no GPUs, so the task is refused. Fix: set gpus = 0 if it runs on CPU")
    if task.dockerfile is None and task.docker_image is None and task.compose is None:
        where = "environment/Dockerfile" if task.format == "harbor" else "Dockerfile"
        raise TaskRefused(f"{task.folder}: no {where} (and no [environment] docker_image); the task's environment "
                          f"is undefined. Fix: add the Dockerfile the task was written for")
    return task


def _first(*paths: Path) -> Path | None:
    return next((p for p in paths if p.is_file()), None)


def _solution(folder: Path, scripts: list[Path], listed: Path | None = None) -> str:
    for script in scripts:
        if script.is_file():
            return script.read_text()
    if listed is not None and listed.is_file():
        steps = yaml.safe_load(listed.read_text()) or []
        return "\n".join(str(s["command"]) if isinstance(s, dict) else str(s) for s in steps) + "\n"
    names = " or ".join(p.relative_to(folder).as_posix() for p in [*scripts, *([listed] if listed else [])])
    raise TaskRefused(f"{folder}: no oracle ({names}); validation needs the reference solution. Fix: add it")
