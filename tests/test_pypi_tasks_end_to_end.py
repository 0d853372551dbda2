"""One real package end to end: `import-suite pypi` builds its image, sorts its own tests, injects a bug, and the
case validates on bubblewrap (gold resolves, untouched fails); an attacker's patch that forges a pass resolves
nothing. The sdist and wheels download once per machine into the PyPI cache; the images are cached by content."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from nightshift.graders.validate import validate_cases
from nightshift.suites import load_cases
from nightshift.suites.pypi_tasks import import_pypi
from tests.sandbox_support import make_backend

PACKAGE = "more-itertools==10.2.0"  # 114 kB sdist, ~630 unittest tests in a few seconds, pure Python

# every trick at once: copies of the original searched for on the whole filesystem (site-packages, caches) and
# copied back, the git history asked, a conftest.py that turns failures into passes, a sitecustomize, edited
# and added tests, and printed "PASSED" lines in the log
ATTACK = r"""#!/usr/bin/env bash
cd /workspace
target={target}
find / -xdev \( -path /proc -o -path /workspace \) -prune -o -name "$(basename "$target")" -type f -print 2>/dev/null \
    | while read -r copy; do cp "$copy" "$target"; done
git log -p 2>/dev/null | head -1
ls /root/.cache/pip /tmp/pip-* 2>/dev/null
cat > conftest.py <<'EOF2'
import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
EOF2
cp conftest.py tests/conftest.py
echo 'import sys' > sitecustomize.py
for f in tests/test_*.py; do printf 'def test_ok():\n    pass\n' > "$f"; done
echo "PASSED everything"
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    make_backend("docker")  # the import builds with the engine: fail (CI) or skip with the reason
    out = tmp_path_factory.mktemp("pypi") / "suite"
    result = import_pypi([PACKAGE, "no-such-package-nightshift==0.0.1"], out, runs=1, tasks_per_package=2)
    assert len(result.imported) == 2, result.refused
    assert "pip could not download" in result.refused["no-such-package-nightshift==0.0.1"]
    return out


def test_the_import_pins_the_image_and_leaves_no_answer_in_the_workspace(suite: Path) -> None:
    folder = sorted(p for p in suite.iterdir() if (p / "case.toml").is_file())[0]
    meta = tomllib.loads((folder / "case.toml").read_text())
    assert meta["image"].startswith("sha256:") and meta["tests"]["log_format"] == "junit"
    assert meta["source"]["task_source"] == "injected bug" and meta["difficulty"]["failing_tests"] >= 1
    assert len(meta["tests"]["pass_to_pass"]) > 100
    names = {p.name for p in (folder / "workspace").rglob("*")}
    assert not names & {".git", "__pycache__"} and not any(n.endswith((".orig", ".rej")) for n in names)
    mutated = folder / "workspace" / meta["source"]["file"]
    gold = (folder / "solution" / "gold.patch").read_text()
    assert gold.startswith(f"diff --git a/{meta['source']['file']}") and mutated.is_file()
    report = json.loads((suite / "import-report.json").read_text())
    assert report["projects"][PACKAGE]["stable_tests"] == len(meta["tests"]["pass_to_pass"]) + len(
        meta["tests"]["fail_to_pass"])


def test_gold_resolves_untouched_fails_and_a_forged_pass_resolves_nothing(suite: Path, tmp_path: Path) -> None:
    backend = make_backend("bubblewrap")
    case = load_cases(suite)[0]
    assert (case.root / "solution" / "breaking_1.sh").is_file()  # the other task's bug on top of this gold fix
    attack_suite = tmp_path / "attack"
    attack_suite.mkdir()
    shutil.copy2(suite / "suite.toml", attack_suite / "suite.toml")
    attack = attack_suite / "forged"
    shutil.copytree(case.root, attack)
    meta = attack / "case.toml"
    meta.write_text(meta.read_text().replace(f'id = "{case.id}"', 'id = "forged"', 1))
    source_file = tomllib.loads((attack / "case.toml").read_text())["source"]["file"]
    (attack / "solution" / "solve.sh").write_text(ATTACK.replace("{target}", source_file))
    for extra in (attack / "solution").glob("breaking_*"):
        extra.unlink()
    (attacked,) = load_cases(attack_suite)
    checks = {c.case_id: c for c in validate_cases([case, attacked], backend, repeats=1, jobs=2).checks}
    real, forged = checks[case.id], checks["forged"]
    assert real.ok, real.problems  # includes: the breaking patch was caught
    assert real.oracle.f2p == (len(case.fail_to_pass), len(case.fail_to_pass))
    assert real.empty.f2p[0] == 0  # untouched: every FAIL_TO_PASS test fails
    assert not forged.ok and forged.oracle.f2p[0] == 0, forged.problems  # the forged "fix" passes none
    assert forged.oracle.p2p[0] == forged.oracle.p2p[1]  # the shipped tests ran, restored, not the stubs
