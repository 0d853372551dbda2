"""Import Harbor (task.toml) and terminal-bench (task.yaml) task folders as nightshift case folders.

Per task: read it (task.py), refuse what cannot run here with the reason (multi-step, sidecars,
GPUs, a FROM image that is not local), find what its test scripts fetch at verify time
(verifier.py), build its environment for real (environment.py), and write the case: the image id
it runs in, the image's WORKDIR as the starting workspace (also mounted at that path), the tests
with their paths mapped, a verifier wrapper, the oracle with all of solution/, and the task's own
limits. Import is partial: every valid task is written, every refused one is listed in suite.toml
with its reason. docs/SUITES.md has the field-by-field table.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import tarfile
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from nightshift.errors import SuiteError
from nightshift.suites.harbor.compose import sidecar_specs
from nightshift.suites.harbor.environment import BuiltEnvironment, build_environment, extract_workdir, sidecar_image
from nightshift.suites.harbor.paths import SOLUTION_IN_SANDBOX, TESTS_IN_SANDBOX, copy_mapped, map_paths
from nightshift.suites.harbor.task import DEFAULT_MAX_STEPS, HarborTask, TaskRefused, is_task, read_task
from nightshift.suites.harbor.verifier import Substitution, rewrite, scan, test_scripts, wrapper

__all__ = ["HarborImport", "TaskRefused", "import_harbor", "is_task", "map_paths", "read_task",
           "TESTS_IN_SANDBOX"]


@dataclass
class HarborImport:
    """What one import did: cases written and tasks refused (folder name -> reason)."""

    out: Path
    imported: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    standins: dict[str, str] = field(default_factory=dict)  # registry name -> id of the stand-in that met it


def _q(value: object) -> str:
    return json.dumps(value)  # a JSON string or list of strings is a valid TOML value


def _solve_script(task: HarborTask, workdir: str) -> str:
    """solve.sh with its paths mapped; the other files of solution/ (mapped too) unpacked first."""
    body = map_paths(task.solution, workdir)
    extra = task.folder / "solution"
    if not extra.is_dir() or len([p for p in extra.rglob("*") if p.is_file()]) <= 1:
        return body
    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="nightshift-solution-") as tmp:
        copy_mapped(extra, Path(tmp) / "solution", workdir)
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            tar.add(Path(tmp) / "solution", arcname=".")
    blob = base64.b64encode(buffer.getvalue()).decode()
    return (f"#!/usr/bin/env bash\nmkdir -p {SOLUTION_IN_SANDBOX}\n"
            f"echo '{blob}' | base64 -d | tar -xz -C {SOLUTION_IN_SANDBOX}\n{body}")


def _write_tests(task: HarborTask, folder: Path, workdir: str, python: str | None) -> list[Substitution]:
    harbor = folder / "tests" / "harbor"
    if (task.folder / "tests").is_dir():
        copy_mapped(task.folder / "tests", harbor, workdir)
    harbor.mkdir(parents=True, exist_ok=True)
    done: list[Substitution] = []
    for path, text in test_scripts(task.folder, task.test_script).items():
        rel = path.relative_to(task.folder).as_posix()
        new, subs = rewrite(rel, map_paths(text, workdir), python)
        target = harbor / (path.name if path == task.test_script else path.relative_to(task.folder / "tests"))
        target.write_text(new)
        done += subs
    return done


def _case_toml(task: HarborTask, built: BuiltEnvironment, subs: list[Substitution], invalid: str,
               sidecars: list[dict]) -> str:
    res = task.resources
    limits = [f"max_steps = {task.max_steps}", f"wall_clock_s = {task.agent_timeout_s}",
              f"test_timeout_s = {task.test_timeout_s}"]
    limits += [f"{k} = {v}" for k, v in (("cpus", res.cpus), ("memory_mb", res.memory_mb), ("disk_mb", res.disk_mb))
               if v is not None]
    lines = [f"id = {_q(task.id)}", f"domain = {_q(task.domain)}", 'split = "public"', f"image = {_q(built.image)}"]
    if invalid:
        lines.append(f"invalid = {_q(invalid)}")
    lines += ["", "[sandbox]", f"workdir = {_q(built.workdir)}", "",
              "[tests]", 'fail_to_pass = ["harbor"]', 'log_format = "harbor"', "", "[limits]", *limits, "",
              "[source]", f"format = {_q(task.format)}", f"task = {_q(task.folder.name)}",
              f"dockerfile = {_q(task.dockerfile.relative_to(task.folder).as_posix() if task.dockerfile else '')}",
              f"task_image = {_q(built.task_image)}", f"user = {_q(built.user)}",
              f"allow_internet = {str(task.resources.allow_internet).lower()}",
              f"python = {_q(built.python or '')}", f"uv = {_q(built.uv_version or '')}",
              f"apt_packages = {_q(built.apt_packages)}", f"wheels = {_q(built.wheels)}", "", "[source.bases]",
              *[f"{_q(name)} = {_q(image)}" for name, image in sorted(built.bases.items())]]
    for name, used in sorted(built.standins.items()):  # which stand-in met each registry name, and how it differs
        lines += ["", f"[source.standins.{_q(name)}]", f"standin = {_q(used['standin'])}",
                  f"image = {_q(used['image'])}", f"differs = {_q(used['differs'])}"]
    for car in sidecars:
        lines += ["", "[[sidecars]]", f"name = {_q(car['name'])}", f"image = {_q(car['image'])}"]
        lines += [f"command = {_q(car['command'])}"] if car["command"] else []
        lines += ["env = { " + ", ".join(f"{_q(k)} = {_q(v)}" for k, v in car["env"].items()) + " }"]
    for sub in subs:
        lines += ["", "[[source.substitutions]]", f"where = {_q(sub.where)}", f"was = {_q(sub.was)}",
                  f"now = {_q(sub.now)}"]
    return "\n".join(lines) + "\n"


def write_case(task: HarborTask, out: Path, base_images: dict[str, str]) -> Path:
    """Build the task's environment and write its case folder; TaskRefused when it cannot be a case."""
    sidecars = []
    if task.compose is not None:
        sidecars = sidecar_specs(task.compose, lambda name, context, ref: sidecar_image(task, base_images, name,
                                                                                         context, ref))
    scripts = test_scripts(task.folder, task.test_script)
    needs = scan({path.relative_to(task.folder).as_posix(): text for path, text in scripts.items()})
    invalid = ""
    if needs.network_lines:
        invalid = ("the tests need the network at verify time, which nightshift sandboxes never have: "
                   + "; ".join(needs.network_lines) + ". Fix: install what these lines fetch in the task's "
                   "Dockerfile (a RUN line), so the tests run offline")
    built = build_environment(task, needs, base_images)
    folder = out / task.id
    staging = out / f".{task.id}.importing"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        extract_workdir(built.task_image, built.workdir, staging / "workspace")
        subs = _write_tests(task, staging, built.workdir, "python3" if built.python else None)
        (staging / "tests" / "test_harbor.sh").write_text(
            wrapper(task.id, task.format, task.test_script.name, task.verifier_env, built.uv_version is not None,
                    "python3" if built.python else None))
        (staging / "solution").mkdir()
        (staging / "solution" / "solve.sh").write_text(_solve_script(task, built.workdir))
        (staging / "instruction.md").write_text(map_paths(task.instruction, built.workdir))
        (staging / "case.toml").write_text(_case_toml(task, built, subs, invalid, sidecars))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    return folder


def _suite_toml(name: str, source: Path, result: HarborImport, base_images: dict[str, str],
                pinned: dict[str, str], standins: dict[str, str], max_steps: int) -> str:
    about = (f"Imported from {source.name}: {len(result.imported)} Harbor/terminal-bench tasks, "
             f"{len(result.refused)} refused")
    lines = [f"name = {_q(name)}", 'version = "1"', f"description = {_q(about)}", "",
             "[harbor]", f"source = {_q(str(source))}", f"max_steps = {max_steps}", "", "[harbor.base_images]"]
    lines += [f"{_q(k)} = {{ local = {_q(v)}, id = {_q(pinned.get(k, ''))} }}" for k, v in sorted(base_images.items())]
    lines += ["", "[harbor.standins]  # registry names met by a stand-in nightshift built (docs/SUITES.md)"]
    lines += [f"{_q(k)} = {_q(v)}" for k, v in sorted(standins.items())]
    for task, reason in sorted(result.refused.items()):
        lines += ["", "[[refused]]", f"task = {_q(task)}", f"reason = {_q(reason)}"]
    return "\n".join(lines) + "\n"


def import_harbor_tasks(source: Path, out: Path, name: str = "harbor", base_images: dict[str, str] | None = None,
                        max_steps: int = DEFAULT_MAX_STEPS) -> HarborImport:
    """Import every valid task under ``source``; refused tasks are listed with their reasons."""
    source, out = Path(source), Path(out)
    if is_task(source):
        tasks = [source]
    else:
        tasks = sorted(d for d in source.iterdir() if is_task(d)) if source.is_dir() else []
    if not tasks:
        raise SuiteError(f"{source}: no Harbor (task.toml) or terminal-bench (task.yaml) task folders here; point "
                         f"import-suite at a task folder or a folder of them")
    base_images = dict(base_images or {})
    out.mkdir(parents=True, exist_ok=True)
    result = HarborImport(out=out)
    pinned: dict[str, str] = {}
    standins = result.standins
    for folder in tasks:
        try:
            task = read_task(folder, max_steps)
            write_case(task, out, base_images)
            result.imported.append(task.id)
            case = (out / task.id / "case.toml").read_text()
            pinned.update({k: v for k, v in _bases(case).items() if k in base_images})
            used = tomllib.loads(case).get("source", {}).get("standins", {})
            standins.update({k: v["image"] for k, v in used.items()})
        except TaskRefused as exc:
            result.refused[folder.name] = str(exc)
    for stale in out.iterdir():  # cases of an earlier import that are not in this one
        if (stale / "case.toml").is_file() and stale.name not in result.imported:
            shutil.rmtree(stale)
    (out / "suite.toml").write_text(_suite_toml(name, source, result, base_images, pinned, standins, max_steps))
    return result


def _bases(case_toml: str) -> dict[str, str]:
    return tomllib.loads(case_toml).get("source", {}).get("bases", {})


def import_harbor(source: Path, out: Path, name: str = "harbor", base_images: dict[str, str] | None = None,
                  max_steps: int = DEFAULT_MAX_STEPS) -> Path:
    """The importer registered as 'harbor': writes the suite folder and returns it (see import_harbor_tasks)."""
    return import_harbor_tasks(source, out, name, base_images, max_steps).out
