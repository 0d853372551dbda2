"""HumanEval hidden-test generation: deterministic under load, new each night, inside the input contract, fair."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nightshift.graders import CaseGrader
from nightshift.graders.hidden import generate
from nightshift.graders.oracle import check_case
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from nightshift.suites.humaneval import import_humaneval

IDS = ["HumanEval/0", "HumanEval/1", "HumanEval/20", "HumanEval/129"]


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    return import_humaneval(tmp_path_factory.mktemp("he"), only=IDS)


@pytest.fixture(scope="module")
def cases(suite: Path) -> dict:
    return {c.id: c for c in load_cases(suite)}


def _inputs(generated) -> list[str]:
    return json.loads((generated.files / "inputs.json").read_text())["inputs"]


def _contract(case):
    """The case's derived contract and its accepts.py predicate, loaded as the generator loads them."""
    sys.path.insert(0, str(case.root / "hidden"))
    try:
        import contract
    finally:
        sys.path.pop(0)
    namespace: dict = {}
    exec((case.root / "hidden" / "accepts.py").read_text(), namespace)
    return json.loads((case.root / "hidden" / "contract.json").read_text()), contract.accepts, namespace["accepts"]


def test_same_case_and_seed_give_identical_tests_under_a_cpu_hog(cases, tmp_path: Path) -> None:
    case = cases["humaneval-129"]
    idle = generate(case, 99, tmp_path / "idle")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        busy = generate(case, 99, tmp_path / "busy")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert busy.digest == idle.digest and _inputs(busy) == _inputs(idle)  # byte-identical, load or not
    assert len(_inputs(idle)) >= 40


def test_different_nights_give_different_tests(cases, tmp_path: Path) -> None:
    case = cases["humaneval-000"]
    one, two = generate(case, 1, tmp_path / "a"), generate(case, 2, tmp_path / "b")
    assert one.digest != two.digest and len(set(_inputs(one)) ^ set(_inputs(two))) > 20
    assert min(len(_inputs(one)), len(_inputs(two))) >= 40


def test_the_contract_rejects_out_of_contract_inputs_and_none_are_generated(cases, tmp_path: Path) -> None:
    import ast

    case = cases["humaneval-001"]  # separate_paren_groups: defined on balanced groups only
    derived, fits, predicate = _contract(case)
    assert not predicate("(()") and not predicate(")(") and predicate("(()) ()")
    assert not fits(derived, (42,)) and not fits(derived, ("(", "(")) and fits(derived, ("() (()) ((())) (()())",))
    for text in _inputs(generate(case, 5, tmp_path / "p")):
        (arg,) = ast.literal_eval(text)
        assert predicate(arg) and fits(derived, (arg,)), text
    grid = cases["humaneval-129"]  # minPath: N x N grids holding 1..N*N
    derived, fits, predicate = _contract(grid)
    assert not predicate([[1, 1], [3, 4]], 2) and predicate([[2, 1], [3, 4]], 2)
    for text in _inputs(generate(grid, 5, tmp_path / "g")):
        assert predicate(*ast.literal_eval(text)), text


def test_a_correct_alternative_solution_passes_and_an_unfair_test_is_reported(cases, suite: Path,
                                                                              tmp_path: Path) -> None:
    case = cases["humaneval-020"]  # find_closest_elements: ties would make the oracle's pick arbitrary
    assert (case.root / "solution" / "alt_1.sh").is_file()
    check = check_case(case, BubblewrapBackend(), CaseGrader(), repeats=1)
    assert check.ok, check.problems
    # without the contract's "one closest pair" rule, ties appear and the alternative (which breaks
    # ties differently, as the docstring allows) fails hidden tests: validation names it
    unfair = tmp_path / "unfair"
    shutil.copytree(suite / "humaneval-020", unfair / "humaneval-020")
    shutil.copy(suite / "suite.toml", unfair / "suite.toml")
    (unfair / "humaneval-020" / "hidden" / "accepts.py").write_text("def accepts(numbers):\n    return True\n")
    flawed = load_cases(unfair)[0]
    check = check_case(flawed, BubblewrapBackend(), CaseGrader(), repeats=1)
    assert any(p.startswith("alternative alt_1.sh fails hidden test stress[") for p in check.problems)
