"""The layers hold: every nightshift import points down or stays in its room (scripts/check_layers.py, the
contract in pyproject.toml [tool.nightshift.layers]), and imports inside functions are the CLI's lazy
subcommands or documented optional ones."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import check_layers  # noqa: E402


def test_the_product_has_no_import_that_points_up_or_sideways() -> None:
    violations, inner = check_layers.check()
    assert not violations, "\n".join(map(str, violations))
    spec = check_layers.rooms_and_layers()[2]
    assert len(inner) <= spec["max_function_imports"], "\n".join(map(str, inner))
    undocumented = [f for f in inner if "# optional" not in check_layers._line(REPO, f)]
    assert not undocumented, "\n".join(map(str, undocumented))


def test_the_check_names_an_import_that_points_up(tmp_path: Path) -> None:
    """A positive control on a small tree of the same shape: a low room importing a high one, a sideways one."""
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.setuptools.package-dir]
        nightshift = "nightshift"
        "nightshift.low" = "low"
        "nightshift.mid" = "mid"
        "nightshift.side" = "side"
        "nightshift.high" = "high"
        [tool.nightshift.layers]
        layers = [["nightshift"], ["low"], ["mid", "side"], ["high"]]
        lazy_rooms = ["high"]
        max_function_imports = 0
    """))
    (tmp_path / "low").mkdir()  # an import read only by the type checker is no dependency; its else branch is
    (tmp_path / "low" / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                               "    from nightshift.high import Publisher\nelse:\n"
                                               "    import nightshift.mid\n")
    for room, body in {"nightshift": "", "low": "from nightshift.high import x\n",
                       "mid": "def f():\n    from nightshift.side import y\n",
                       "side": "import nightshift.low\n", "high": "def g():\n    import nightshift.mid\n"}.items():
        (tmp_path / room).mkdir(exist_ok=True)
        (tmp_path / room / "mod.py").write_text(body)
    violations, inner = check_layers.check(tmp_path)
    said = sorted(str(v) for v in violations)
    assert len(said) == 3, said
    assert said[0].startswith("low/mod.py:1: low/ imports nightshift.high: high/ is in a layer above")
    assert said[1].startswith("low/typed.py:5: low/ imports nightshift.mid: mid/ is in a layer above")
    assert said[2].startswith("mid/mod.py:2: mid/ imports nightshift.side: side/ is in the same layer")
    assert [f"{f.file}:{f.line}" for f in inner] == ["mid/mod.py:2"]  # high/ is lazy by design


def test_the_command_prints_each_finding_and_exits_0_here() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "check_layers.py")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    assert "layering: 0 violations" in done.stdout
