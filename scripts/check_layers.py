"""The layering check: every import of a nightshift module points down, or stays in its own room.

    python scripts/check_layers.py            # prints each offending import as file:line, exit 1 if any

The layers are pyproject.toml's [tool.nightshift.layers] (bottom first; docs/ARCHITECTURE.md draws them). A
module of room R, in layer L, may import its own room and any room of a layer below L; never a room of its own
layer or above. Imports inside functions count like any other: they are dependencies too. It also lists imports
inside functions outside the CLI (whose subcommands import lazily by design): each must be a documented
optional dependency, at most ``max_function_imports`` of them. Imports under ``if TYPE_CHECKING:`` are left out:
they are read by the type checker only, never run, so a signature may name a model from above (the night's
Publisher a trial is handed) without the room depending on it. The check reads the source (ast), so it needs no
import-linter (which cannot follow pyproject's package-dir mapping of the top-level folders).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SKIP = {"templates", "builtin", "alternatives", "timing_bench"}  # package data: case files, not our modules


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def rooms_and_layers(repo: Path = REPO) -> tuple[dict[str, str], dict[str, int], dict]:
    config = tomllib.loads((repo / "pyproject.toml").read_text())
    folders = {pkg.split(".", 1)[1] if "." in pkg else "nightshift": folder
               for pkg, folder in config["tool"]["setuptools"]["package-dir"].items()}
    spec = config["tool"]["nightshift"]["layers"]
    layer_of = {room: i for i, layer in enumerate(spec["layers"]) for room in layer}
    unplaced = sorted(set(folders) - set(layer_of))
    if unplaced:
        raise SystemExit(f"pyproject.toml [tool.nightshift.layers]: rooms {unplaced} are in no layer; add them")
    return folders, layer_of, spec


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "nightshift" and parts[1] in _ROOMS else "nightshift"


_ROOMS: set[str] = set()


def imports(tree: ast.AST) -> list[tuple[int, str, bool]]:
    """(line, module, inside a function) of every import of a nightshift module."""
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:  # what runs when not type checking still counts
                    visit(ast.Module(body=[other], type_ignores=[]), in_function)
                continue
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.append((child.lineno, child.module, in_function))
            elif isinstance(child, ast.Import):
                found.extend((child.lineno, a.name, in_function) for a in child.names)
            visit(child, inner)

    visit(tree, False)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def check(repo: Path = REPO) -> tuple[list[Finding], list[Finding]]:
    """(layering violations, imports inside functions outside the CLI) of the checkout at ``repo``."""
    folders, layer_of, spec = rooms_and_layers(repo)
    _ROOMS.clear()
    _ROOMS.update(r for r in folders if r != "nightshift")
    violations, inner = [], []
    for room, folder in sorted(folders.items()):
        root = repo / folder
        files = root.glob("*.py") if room == "nightshift" else root.rglob("*.py")
        for path in sorted(files):
            if SKIP & set(path.relative_to(repo).parts):
                continue
            rel = str(path.relative_to(repo))
            for line, module, in_function in imports(ast.parse(path.read_text(), rel)):
                if in_function and room not in spec.get("lazy_rooms", []):
                    inner.append(Finding(rel, line, f"import of {module} inside a function"))
                if module.split(".")[0] != "nightshift":
                    continue
                target = room_of(module)
                if target == room:
                    continue
                if layer_of[target] >= layer_of[room]:
                    where = "the same layer" if layer_of[target] == layer_of[room] else "a layer above"
                    violations.append(Finding(rel, line, f"{room}/ imports {module}: {target}/ is in {where} "
                                                         f"(layers: pyproject.toml [tool.nightshift.layers])"))
    return violations, inner


def main() -> int:
    violations, inner = check()
    _, _, spec = rooms_and_layers()
    for finding in violations:
        print(finding)
    allowed = spec.get("max_function_imports", 0)
    undocumented = [f for f in inner if "# optional" not in _line(REPO, f)]
    for finding in undocumented:
        print(f"{finding} (move it to the top, or mark a documented optional dependency with '# optional: why')")
    over = len(inner) > allowed
    if over:
        print(f"{len(inner)} imports inside functions outside {spec.get('lazy_rooms')}; at most {allowed}")
    print(f"layering: {len(violations)} violations; imports inside functions: {len(inner)} (at most {allowed})")
    return 1 if violations or undocumented or over else 0


def _line(repo: Path, finding: Finding) -> str:
    return (repo / finding.file).read_text().splitlines()[finding.line - 1]


if __name__ == "__main__":
    sys.exit(main())
