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

IDS = ["HumanEval/0", "HumanEval/1", "HumanEval/15", "HumanEval/20", "HumanEval/39", "HumanEval/81", "HumanEval/124",
       "HumanEval/129", "HumanEval/157"]


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


def test_the_canonical_solutions_constants_are_tried_where_comparisons_part(cases, tmp_path: Path) -> None:
    import ast

    # numerical_letter_grade compares with 3.7, 3.3, ..., 0.7: `gpa > 3.7` and `gpa >= 3.7` part only on 3.7
    lists = [ast.literal_eval(text)[0] for text in _inputs(generate(cases["humaneval-081"], 3, tmp_path / "g"))]
    grades = {v for grades in lists for v in grades}
    assert {4.0, 3.7, 3.3, 3.0, 2.7, 2.3, 2.0, 1.7, 1.3, 1.0, 0.7, 0.0} <= grades
    # valid_date: strings keep the tests' mm-dd-yyyy format while month and day take the solution's constants
    dates = [ast.literal_eval(t)[0] for t in _inputs(generate(cases["humaneval-124"], 3, tmp_path / "d"))]
    shaped = [d.split("-") for d in dates if d.count("-") == 2 and all(p.isdigit() for p in d.split("-"))]
    months = {int(m) for m, _, _ in shaped}
    assert {0, 12} <= months and len(months & set(range(14))) >= 10 and len(shaped) >= 40
    assert any(int(m) in (4, 6, 9, 11) and int(day) == 31 for m, day, _ in shaped)  # a 30-day month's day 31


def test_small_domains_still_get_their_inputs(cases, tmp_path: Path) -> None:
    import ast

    # prime_fib(n): the canonical computes n = 1..11 within its counted budget (the 12th prime Fibonacci number
    # needs about 10**8 lines); 11 is new, 1..10 are the public tests' own, kept since the domain is that small
    fib = sorted(ast.literal_eval(t)[0] for t in _inputs(generate(cases["humaneval-039"], 1, tmp_path / "p")))
    assert fib == list(range(1, 12))
    # string_sequence(n), tested with n = 0, 3, 10: a lone small int may take 50 values at least
    assert len(_inputs(generate(cases["humaneval-015"], 1, tmp_path / "s"))) >= 40


def test_an_override_drops_an_order_between_arguments_the_tests_only_happened_to_keep(cases, tmp_path: Path) -> None:
    import ast

    # right_angle_triangle: the tests never put the hypotenuse second; the problem does not say they cannot
    triangles = [ast.literal_eval(t) for t in _inputs(generate(cases["humaneval-157"], 1, tmp_path / "t"))]
    assert any(b > c for _, b, c in triangles)
