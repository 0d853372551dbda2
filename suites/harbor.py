"""Import Harbor and terminal-bench task folders as nightshift case folders.

Harbor: instruction.md, task.toml, environment/Dockerfile, tests/test.sh, solution/solve.sh.
terminal-bench: task.yaml (with the instruction), Dockerfile, run-tests.sh, tests/, solution.sh
(or solution.yaml). The files the Dockerfile COPYs into its WORKDIR become the starting workspace;
the task's absolute paths are mapped into the sandbox (WORKDIR -> /workspace, /tests ->
/grader/tests/harbor, /logs/verifier -> /tmp/harbor-logs/verifier, /solution -> /tmp/harbor-solution).
Tests are copied in at verification only, like every nightshift test. The reward is the test
script's exit code, or reward.txt / reward.json when it writes one (a fraction is partial credit).
"""

from __future__ import annotations

import base64
import io
import re
import shutil
import tarfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import yaml

from nightshift.suites.loader import SuiteError

TESTS_IN_SANDBOX = "/grader/tests/harbor"
LOGS_IN_SANDBOX = "/tmp/harbor-logs/verifier"
SOLUTION_IN_SANDBOX = "/tmp/harbor-solution"
_TEXT_SUFFIXES = {".sh", ".py", ".md", ".txt", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ""}

_WRAPPER = """#!/usr/bin/env bash
# Harbor/terminal-bench verifier of {task}: run {script}, then read the reward it wrote, if any.
mkdir -p {logs}
export TEST_DIR={tests}
cd /workspace
bash {tests}/{script}
code=$?
if [ -f {logs}/reward.txt ]; then
    reward=$(tr -d ' \\n' < {logs}/reward.txt)
elif [ -f {logs}/reward.json ]; then
    reward=$(python3 -S -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("reward", min(d.values())))' \\
        {logs}/reward.json)
else
    exit $code
fi
echo "nightshift-reward: $reward"
python3 -S -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 1 else 1)' "$reward"
"""


@dataclass
class HarborTask:
    folder: Path
    id: str
    instruction: str
    domain: str
    agent_timeout_s: float
    test_timeout_s: float
    dockerfile: Path | None
    test_script: Path
    solution: str


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise SuiteError(f"task folder {name!r}: cannot make a case id from its name; rename it")
    return slug


def is_task(folder: Path) -> bool:
    return folder.is_dir() and ((folder / "task.toml").is_file() or (folder / "task.yaml").is_file())


def read_task(folder: Path) -> HarborTask:
    """Read either format; errors name the file that is missing or malformed."""
    if (folder / "task.toml").is_file():
        meta = tomllib.loads((folder / "task.toml").read_text())
        if not (folder / "instruction.md").is_file():
            raise SuiteError(f"{folder / 'instruction.md'}: missing; a Harbor task needs its instruction")
        instruction = (folder / "instruction.md").read_text()
        info = meta.get("metadata", {})
        agent_s = float(meta.get("agent", {}).get("timeout_sec", 600))
        test_s = float(meta.get("verifier", {}).get("timeout_sec", 300))
        dockerfile, script = folder / "environment" / "Dockerfile", folder / "tests" / "test.sh"
        solution = folder / "solution" / "solve.sh"
    else:
        meta = yaml.safe_load((folder / "task.yaml").read_text()) or {}
        if "instruction" not in meta:
            raise SuiteError(f"{folder / 'task.yaml'}: field 'instruction' is missing")
        instruction, info = meta["instruction"], meta
        agent_s = float(meta.get("max_agent_timeout_sec", 600))
        test_s = float(meta.get("max_test_timeout_sec", 300))
        dockerfile, script = folder / "Dockerfile", folder / "run-tests.sh"
        solution = folder / "solution.sh"
    if not script.is_file():
        raise SuiteError(f"{script}: missing; the task needs a test script (tests/test.sh or run-tests.sh)")
    return HarborTask(folder=folder, id=_slug(folder.name), instruction=instruction,
                      domain=str(info.get("category") or "terminal"), agent_timeout_s=agent_s,
                      test_timeout_s=test_s, dockerfile=dockerfile if dockerfile.is_file() else None,
                      test_script=script, solution=_solution_text(folder, solution))


def _solution_text(folder: Path, script: Path) -> str:
    if script.is_file():
        return script.read_text()
    listed = folder / "solution.yaml"
    if listed.is_file():
        steps = yaml.safe_load(listed.read_text()) or []
        return "\n".join(str(s["command"]) if isinstance(s, dict) else str(s) for s in steps) + "\n"
    raise SuiteError(f"{script}: missing; the task needs an oracle (solution/solve.sh, solution.sh or solution.yaml)")


def workdir_and_copies(dockerfile: Path | None) -> tuple[str, list[tuple[list[str], str]]]:
    """WORKDIR (default /app) and every COPY/ADD (sources, destination) of a Dockerfile."""
    workdir, copies = "/app", []
    if dockerfile is None:
        return workdir, copies
    text = re.sub(r"\\\n", " ", dockerfile.read_text())
    for line in text.splitlines():
        words = line.strip().split()
        if not words:
            continue
        op = words[0].upper()
        if op == "WORKDIR" and len(words) > 1:
            workdir = words[1] if words[1].startswith("/") else f"{workdir.rstrip('/')}/{words[1]}"
        elif op in ("COPY", "ADD") and len(words) > 2:
            args = [w for w in words[1:] if not w.startswith("--")]
            copies.append((args[:-1], args[-1]))
    return workdir.rstrip("/") or "/", copies


def map_paths(text: str, workdir: str) -> str:
    """Rewrite the task's absolute paths to where the sandbox has them."""
    text = text.replace("/logs/verifier", LOGS_IN_SANDBOX)
    text = re.sub(r"(?<![\w./-])/tests(?![\w-])", TESTS_IN_SANDBOX, text)
    text = re.sub(r"(?<![\w./-])/solution(?![\w-])", SOLUTION_IN_SANDBOX, text)
    if workdir not in ("/", "/workspace"):
        text = re.sub(rf"(?<![\w./-]){re.escape(workdir)}(?![\w-])", "/workspace", text)
    return text


def _copy_mapped(src: Path, dst: Path, workdir: str) -> None:
    shutil.copytree(src, dst, dirs_exist_ok=True)
    for path in dst.rglob("*"):
        if path.is_file() and path.suffix in _TEXT_SUFFIXES:
            try:
                path.write_text(map_paths(path.read_text(), workdir))
            except UnicodeDecodeError:
                continue


def _workspace(task: HarborTask, into: Path, workdir: str, copies: list[tuple[list[str], str]]) -> None:
    context = task.dockerfile.parent if task.dockerfile else task.folder
    into.mkdir(parents=True, exist_ok=True)
    for sources, dest in copies:
        target = dest if dest.startswith("/") else f"{workdir}/{dest}"
        if not (target == workdir or target.startswith(workdir.rstrip("/") + "/")):
            continue  # copied outside the working folder: part of the image, not of the task's files
        rel = target[len(workdir):].strip("/")
        for source in sources:
            path = (context / source).resolve()
            if not path.exists() or context.resolve() not in [path, *path.parents]:
                continue
            if path.is_dir():
                shutil.copytree(path, into / rel, dirs_exist_ok=True)
            else:
                name = rel if rel and not dest.endswith("/") and len(sources) == 1 else f"{rel}/{path.name}".strip("/")
                (into / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, into / name)


def _solve_script(task: HarborTask, workdir: str) -> str:
    extra = task.folder / "solution"
    body = map_paths(task.solution, workdir)
    if not extra.is_dir() or len(list(extra.rglob("*"))) <= 1:
        return body
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(extra, arcname=".")
    blob = base64.b64encode(buffer.getvalue()).decode()
    return (f"#!/usr/bin/env bash\nmkdir -p {SOLUTION_IN_SANDBOX}\n"
            f"echo '{blob}' | base64 -d | tar -xz -C {SOLUTION_IN_SANDBOX}\n{body}")


def write_case(task: HarborTask, out: Path) -> Path:
    workdir, copies = workdir_and_copies(task.dockerfile)
    folder = out / task.id
    shutil.rmtree(folder, ignore_errors=True)
    _workspace(task, folder / "workspace", workdir, copies)
    tests = folder / "tests"
    if (task.folder / "tests").is_dir():
        _copy_mapped(task.folder / "tests", tests / "harbor", workdir)
    (tests / "harbor").mkdir(parents=True, exist_ok=True)
    if task.test_script.parent != task.folder / "tests":
        (tests / "harbor" / task.test_script.name).write_text(map_paths(task.test_script.read_text(), workdir))
    (tests / "test_harbor.sh").write_text(_WRAPPER.format(task=task.id, script=task.test_script.name,
                                                          logs=LOGS_IN_SANDBOX, tests=TESTS_IN_SANDBOX))
    (folder / "solution").mkdir()
    (folder / "solution" / "solve.sh").write_text(_solve_script(task, workdir))
    (folder / "instruction.md").write_text(map_paths(task.instruction, workdir))
    dockerfile = task.dockerfile.relative_to(task.folder).as_posix() if task.dockerfile else ""
    (folder / "case.toml").write_text(
        f'id = "{task.id}"\ndomain = "{task.domain}"\nsplit = "public"\n\n[tests]\nfail_to_pass = ["harbor"]\n\n'
        f"[limits]\nmax_steps = 40\nwall_clock_s = {task.agent_timeout_s}\ntest_timeout_s = {task.test_timeout_s}\n\n"
        f'[source]\nformat = "harbor"\ntask = "{task.folder.name}"\ndockerfile = "{dockerfile}"\n'
        f'workdir = "{workdir}"\n')
    return folder


def import_harbor(source: Path, out: Path, name: str = "harbor") -> Path:
    """One task folder, or a folder of task folders, written as the suite ``out``."""
    source = Path(source)
    if is_task(source):
        tasks = [source]
    else:
        tasks = sorted(d for d in source.iterdir() if is_task(d)) if source.is_dir() else []
    if not tasks:
        raise SuiteError(f"{source}: no Harbor (task.toml) or terminal-bench (task.yaml) task folders here")
    out.mkdir(parents=True, exist_ok=True)
    (out / "suite.toml").write_text(f'name = "{name}"\nversion = "1"\ndescription = "Imported from {source.name}: '
                                    f'{len(tasks)} Harbor/terminal-bench tasks"\n')
    for task in tasks:
        write_case(read_task(task), out)
    return out
