"""The starter project `nightshift init` writes into a user's folder: an experiment, a one-case suite,
a prefect.yaml for the nightly deployment and a .gitignore.

The files ship as package data (nightshift/templates/project/) and are read through importlib.resources,
so a wheel writes exactly what a checkout would. Nothing that exists is overwritten without ``force``.
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from nightshift.cli.output import console
from nightshift.errors import ConfigurationError
from nightshift.resources import package_path

# package data leaves out dot-files, so they ship under a plain name
_RENAMED = {"gitignore": ".gitignore"}
_SUBSTITUTED = {"prefect.yaml"}  # files with @PROJECT@ in them
_MERGED = {".gitignore"}  # files a project already has: the starter's lines are appended, never replaced


class InitError(ConfigurationError, RuntimeError):
    """The starter project cannot be written; the message names the files and the fix."""


def template_files() -> dict[Path, Path]:
    """Every template file, keyed by its path relative to the project folder."""
    root = package_path("nightshift", "templates", "project")
    files = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return {Path(*(_RENAMED.get(part, part) for part in p.relative_to(root).parts)): p for p in files}


def project_name(folder: Path) -> str:
    """The folder's name as a Prefect project name (letters, digits, '-', '_', '.')."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", folder.resolve().name).strip("-") or "nightshift-project"


def write_project(folder: Path, force: bool = False) -> list[Path]:
    """Write the starter project into ``folder`` (created if missing); returns the files written."""
    folder = Path(folder)
    files = template_files()
    # a project's own .gitignore is kept: the starter's lines are added to it (_merge_lines)
    existing = [rel for rel in files if (folder / rel).exists() and rel.name not in _MERGED]
    if existing and not force:
        names = ", ".join(str(folder / rel) for rel in existing)
        raise InitError(f"not overwriting what is already there: {names}; move them away, or pass --force to "
                        f"replace them with the starter files")
    written = []
    for rel, source in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.name in _MERGED and target.exists() and not force:
            _merge_lines(target, source.read_text())
        elif rel.name in _SUBSTITUTED:
            target.write_text(source.read_text().replace("@PROJECT@", project_name(folder)))
        else:
            shutil.copyfile(source, target)
        if rel.suffix == ".sh":  # the oracle is run as a script; wheels do not always keep the mode
            target.chmod(0o755)
        written.append(target)
    return written


def _merge_lines(target: Path, template: str) -> None:
    """Append the template's lines that ``target`` lacks (comments only with at least one new line)."""
    have = set(target.read_text().splitlines())
    new = [line for line in template.splitlines() if line.strip() and not line.startswith("#") and line not in have]
    if new:
        text = target.read_text()
        comment = [line for line in template.splitlines() if line.startswith("#")]
        target.write_text(text + ("" if text.endswith("\n") or not text else "\n") + "\n".join(comment + new) + "\n")


EXAMPLE_EXPERIMENT = """\
# Written by `nightshift init --example harness`: your Python harness (agents/plan_act.py, a copy of nightshift's
# example: edit it) against the reference loop on the starter suite. docs/plugins/harness.md has what it is given.
name: plan-act
suites:
  - ../suites/starter
variants:
  - name: reference
    model: sim-strong
  - name: plan_act
    model: sim-strong
    harness: {kind: python, entrypoint: "agents.plan_act:PlanAct", settings: {plan_steps: 2}}
seeds: [1, 2]
concurrency: 2
sandbox:
  backend: bubblewrap
  image: host
model:
  base_url: null
output_dir: ../runs
"""
EXAMPLES = {"harness": {Path("agents") / "plan_act.py": "plan_act.py",
                        Path("experiments") / "plan_act.yaml": None}}  # None: EXAMPLE_EXPERIMENT


def write_example(folder: Path, kind: str, force: bool = False) -> list[Path]:
    """A worked example of one extension point, copied from the wheel into the project for the team to edit."""
    files = EXAMPLES[kind]
    existing = [folder / rel for rel in files if (folder / rel).exists()]
    if existing and not force:
        raise InitError(f"not overwriting {', '.join(map(str, existing))}; move them away, or pass --force")
    written = []
    for rel, source in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        text = (Path(package_path("nightshift.examples", source)).read_text() if source else EXAMPLE_EXPERIMENT)
        target.write_text(text.replace("examples.plan_act:PlanAct", "agents.plan_act:PlanAct"))
        written.append(target)
    return written


def add_init_command(sub: argparse._SubParsersAction) -> None:
    init = sub.add_parser("init", help="write a starter project (experiment, one-case suite, prefect.yaml, "
                                       ".gitignore) into FOLDER")
    init.add_argument("folder", nargs="?", default=".", help="the project folder (default: this one)")
    init.add_argument("--force", action="store_true", help="replace starter files that already exist")
    init.add_argument("--example", choices=sorted(EXAMPLES), help="also write a worked example to edit: harness "
                      "(agents/plan_act.py, a Python harness, and experiments/plan_act.yaml comparing it with the "
                      "reference loop)")
    init.set_defaults(fn=init_command)


def init_command(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    starter = folder / "experiments" / "default.yaml"
    written = [] if args.example and starter.exists() and not args.force else write_project(folder, args.force)
    if args.example:  # an initialised project gets the example alone
        written += write_example(folder, args.example, force=args.force)
    for path in written:
        console.print(f"wrote {path}", markup=False, highlight=False)
    where = "" if folder.resolve() == Path.cwd().resolve() else f"cd {folder} && "
    then = " experiments/plan_act.yaml" if args.example else ""
    console.print(f"\nnext: {where}nightshift validate-suite suites/starter && nightshift run{then}\n"
                  "      (runs/ gets the run folders, .nightshift/ the local Prefect server and caches)",
                  markup=False, highlight=False)
    return 0


