"""The type check: mypy over the installed namespace, configured in pyproject.toml [tool.mypy].

    python scripts/typecheck.py              # mypy's report with repository paths; exit status is mypy's
    python scripts/typecheck.py --probe F    # also check F as nightshift._typecheck_probe (strict: the bottom
                                             # layer), tests/test_types.py's positive control; the checkout is
                                             # left as it is

Why a script and not plain ``mypy``: the top-level folders are mapped onto ``nightshift.<part>`` by
pyproject's package-dir, and neither mypy's search path nor the editable install (a setuptools import hook,
which mypy cannot follow) shows it that mapping. So the script lays out the namespace as the wheel installs it
— ``.mypy_cache/namespace/nightshift/`` holding a link to every entry of ``nightshift/`` and one to each mapped
folder — checks that tree with ``-p nightshift`` (mypy's incremental cache under ``.mypy_cache`` keeps a
re-run fast), and prints mypy's report with the repository's paths (``gateway/x.py``, not the link's).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TREE = REPO / ".mypy_cache" / "namespace"


def mapping(repo: Path = REPO) -> dict[str, str]:
    """{subpackage under nightshift/: its folder} from pyproject's package-dir (``gateway``: ``gateway``)."""
    config = tomllib.loads((repo / "pyproject.toml").read_text())
    return {pkg.split(".", 1)[1]: folder for pkg, folder in config["tool"]["setuptools"]["package-dir"].items()
            if "." in pkg}


def build_tree(repo: Path = REPO, tree: Path = TREE) -> Path:
    """The namespace as installed, as links into the checkout; rebuilt each run (links are cheap, and a stale
    one would hide a removed module)."""
    root = tree / "nightshift"
    root.mkdir(parents=True, exist_ok=True)
    wanted = {entry.name: entry for entry in (repo / "nightshift").iterdir() if entry.name != "__pycache__"}
    wanted.update({sub: repo / folder for sub, folder in mapping(repo).items()})
    for link in root.iterdir():
        if link.name not in wanted or not link.is_symlink() or Path(os.readlink(link)) != wanted[link.name]:
            link.unlink()
    for name, target in wanted.items():
        if not (root / name).is_symlink():
            (root / name).symlink_to(target)
    return tree


def to_repo_paths(report: str, repo: Path = REPO, tree: Path = TREE) -> str:
    """mypy names files by the link it found them through; name them by the checkout's paths instead."""
    subs = mapping(repo)
    prefix = re.escape(str((tree / "nightshift").relative_to(repo)) + os.sep)

    def repl(match: re.Match[str]) -> str:
        first, rest = match.group(1), match.group(2)
        return f"{subs[first]}{rest}" if first in subs else f"nightshift/{first}{rest}"

    return re.sub(prefix + r"([^/\s:]+)([^\s:]*)", repl, report)


PROBE = "_typecheck_probe"


def main(argv: list[str]) -> int:
    tree = build_tree()
    env = {**os.environ, "MYPYPATH": str(tree)}
    command = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"), "-p", "nightshift"]
    probe = tree / "nightshift" / f"{PROBE}.py"
    if argv[:1] == ["--probe"]:
        probe.write_text(Path(argv[1]).read_text())
        argv = argv[2:]
    try:
        done = subprocess.run([*command, *argv], cwd=REPO, env=env, capture_output=True, text=True)
    finally:
        probe.unlink(missing_ok=True)
    sys.stdout.write(to_repo_paths(done.stdout))
    sys.stderr.write(to_repo_paths(done.stderr))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
