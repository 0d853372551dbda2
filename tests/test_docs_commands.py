"""Commands in the docs run as written: a renamed flag, subcommand, module or make target fails here.

Every command in a code block of README.md and docs/*.md (tests/docs_commands.py) is checked against what it
names: `nightshift` subcommands and flags against the CLI's own parser, `python -m MODULE` flags against that
module's --help, `prefect` subcommands and flags against Prefect's --help, `make` targets against the Makefile.
The README's "Use it from your own project" block is then run as written in a fresh folder.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.docs_commands import DocCommand, block_after, doc_commands

COMMANDS = doc_commands()
VENV_BIN = Path(sys.executable).parent


def by_program(*names: str) -> list[DocCommand]:
    return [c for c in COMMANDS if c.program in names]


def flags(words: list[str]) -> list[str]:
    return [w.split("=", 1)[0] for w in words if w.startswith("-") and w not in ("-", "--")]


def test_the_docs_hold_commands_of_every_kind() -> None:
    """The extraction itself: it must find the README's two set-up commands and each program's commands."""
    readme = [c.text for c in COMMANDS if c.file.name == "README.md"]
    assert readme[:2] == ["make run", "make test"]
    assert {c.program for c in COMMANDS} >= {"nightshift", "make", "prefect", "python"}
    assert len(by_program("nightshift")) >= 30


@pytest.mark.parametrize("command", by_program("nightshift"), ids=lambda c: c.where)
def test_nightshift_commands_name_real_subcommands_and_flags(command: DocCommand) -> None:
    from nightshift.cli.main import build_parser

    words = command.words()[1:]
    subparsers = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    assert words and words[0] in subparsers.choices, \
        f"{command.where}: `{command.text}`: no subcommand {words[:1]} (there are {sorted(subparsers.choices)})"
    parser = subparsers.choices[words[0]]
    unknown = [f for f in flags(words[1:]) if f not in parser._option_string_actions]
    assert not unknown, f"{command.where}: `{command.text}`: nightshift {words[0]} has no {unknown}"


@functools.cache
def module_help(module: str) -> str:
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"python -m {module} --help exited {done.returncode}: {done.stderr[-1500:]}"
    return done.stdout


@pytest.mark.parametrize("command", [c for c in by_program("python", "python3") if "-m" in c.words()],
                         ids=lambda c: c.where)
def test_python_modules_exist_and_take_the_flags_shown(command: DocCommand) -> None:
    words = command.words()
    module, args = words[words.index("-m") + 1], words[words.index("-m") + 2:]
    if module == "pytest":
        missing = [a for a in args if a.startswith("tests/") and not (REPO / a).exists()]
        assert not missing, f"{command.where}: `{command.text}`: no such test file {missing}"
        return
    usage = module_help(module)
    unknown = [f for f in flags(args) if not re.search(rf"(^|[\s\[,]){re.escape(f)}\b", usage)]
    assert not unknown, f"{command.where}: `{command.text}`: python -m {module} takes no {unknown}"


@pytest.mark.parametrize("command", by_program("prefect"), ids=lambda c: c.where)
def test_prefect_commands_exist_and_take_the_flags_shown(command: DocCommand) -> None:
    words = command.words()[1:]
    path = [w for w in words[:3] if not w.startswith("-") and re.fullmatch(r"[a-z-]+", w)][:2]
    done = subprocess.run([str(VENV_BIN / "prefect"), *path, "--help"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, f"{command.where}: `{command.text}`: prefect {' '.join(path)}: {done.stderr[-800:]}"
    unknown = [f for f in flags(words) if f not in done.stdout]
    assert not unknown, f"{command.where}: `{command.text}`: prefect {' '.join(path)} takes no {unknown}"
    if path == ["deployment", "run"]:  # FLOW/DEPLOYMENT: a deployment prefect.yaml defines
        import yaml

        names = {d["name"] for d in yaml.safe_load((REPO / "prefect.yaml").read_text())["deployments"]}
        target = next(w for w in words[2:] if "/" in w)
        assert target.split("/")[1] in names, f"{command.where}: prefect.yaml has no deployment {target}"


def test_make_targets_exist() -> None:
    makefile = (REPO / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][\w.-]*):", makefile, re.M))
    wrong = [(c.where, c.text) for c in by_program("make") if not set(c.words()[1:]) <= targets]
    assert not wrong, f"make targets the Makefile lacks: {wrong}"


def test_the_readme_own_project_block_runs_as_written(tmp_path: Path, prefect_server: str) -> None:
    """README "Use it from your own project", in a new folder: init, validate-suite, run, compare (both runs the
    night just made); the wheel install and the `cd` are what tests/test_wheel_project.py does."""
    commands = block_after(REPO / "README.md", "## Use it from your own project")
    assert [c.split()[1] for c in commands if c.startswith("nightshift")] == ["init", "validate-suite", "run",
                                                                              "compare"]
    project = tmp_path / "my-evals"
    project.mkdir()
    env = {**os.environ, "PATH": f"{VENV_BIN}:{os.environ['PATH']}", "PREFECT_API_URL": prefect_server}
    for command in commands:
        if not command.startswith("nightshift"):
            continue  # pip install and cd
        if " compare " in f" {command} ":
            runs = sorted(p for p in (project / "runs").iterdir() if (p / "results.parquet").is_file())
            command = command.replace("runs/A", str(runs[0])).replace("runs/B", str(runs[0]))
        done = subprocess.run(command, shell=True, cwd=project, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, f"README: `{command}` exited {done.returncode}:\n{done.stdout[-2500:]}" \
                                     f"{done.stderr[-2500:]}"
