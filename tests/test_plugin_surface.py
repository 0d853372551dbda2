"""nightshift.plugin is the one import a plugin needs: the examples, the starter project and the docs' worked
examples import nothing else of nightshift, and every built-in plugin takes from nightshift only the public
surface and its own room (sandbox backends their sandbox/ modules, the reference loop its harnesses/ ones)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import nightshift.plugin as surface
from nightshift.plugins import ALL
from tests.conftest import REPO


def nightshift_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every `import nightshift...` / `from nightshift... import` in the source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "nightshift":
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "nightshift"]
    return found


def example_files() -> list[Path]:
    python = [*sorted((REPO / "examples").glob("*.py")), *sorted((REPO / "nightshift" / "templates").rglob("*.py"))]
    return [p for p in python if p.name != "__init__.py"]


def test_the_check_sees_an_import_that_is_not_the_surface() -> None:
    assert nightshift_imports("from nightshift.harnesses.tool_agent import TOOL_SCHEMAS\nimport os\n") == \
        [(1, "nightshift.harnesses.tool_agent")]


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_examples_and_the_starter_project_import_only_the_surface(path: Path) -> None:
    wrong = [(n, m) for n, m in nightshift_imports(path.read_text()) if m != "nightshift.plugin"]
    assert not wrong, f"{path.relative_to(REPO)} imports {wrong}: import these from nightshift.plugin"


def builtin_plugin_modules() -> list[tuple[str, str]]:
    modules = set()
    for registry in ALL.values():
        for path in registry._builtins.values():
            modules.add((registry.group, path.partition(":")[0]))
    return sorted(modules)


@pytest.mark.parametrize(("group", "module"), builtin_plugin_modules(), ids=lambda v: v)
def test_builtin_plugins_take_from_nightshift_only_the_surface_and_their_own_room(group: str, module: str) -> None:
    import importlib.util

    room = ".".join(module.split(".")[:2])  # nightshift.sandbox, nightshift.harnesses, ...
    source = Path(importlib.util.find_spec(module).origin).read_text()
    wrong = [(n, m) for n, m in nightshift_imports(source) if m != "nightshift.plugin" and not m.startswith(room)]
    assert not wrong, f"built-in {group} plugin {module} imports {wrong}; take them from nightshift.plugin"


def test_every_name_the_surface_lists_is_there_and_covers_each_extension_point() -> None:
    missing = [name for name in surface.__all__ if not hasattr(surface, name)]
    assert not missing
    for contract in ("Harness", "ModelClient", "Sandbox", "SandboxBackend", "Metric", "SuiteImporter",
                     "NightshiftError", "LimitReached", "TrajectoryLog"):
        assert contract in surface.__all__, contract


def plugin_page_examples() -> list[tuple[Path, str]]:
    """(page, source) of every ```python block of docs/plugins/*.md: the pages' worked examples."""
    blocks = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
    return [(page, block) for page in sorted((REPO / "docs" / "plugins").glob("*.md"))
            for block in blocks.findall(page.read_text())]


def test_the_plugin_pages_examples_import_only_the_surface() -> None:
    examples = plugin_page_examples()
    assert len(examples) >= 4, f"docs/plugins/ has {len(examples)} ```python blocks; each extension point has one"
    for page, source in examples:
        imports = nightshift_imports(source)
        wrong = [(n, m) for n, m in imports if m != "nightshift.plugin"]
        assert not wrong, f"{page.relative_to(REPO)}: its example imports {wrong}; import them from nightshift.plugin"
        assert imports, f"{page.relative_to(REPO)}: its example does not use nightshift.plugin at all"
