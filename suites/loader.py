"""Load case folders (suite.toml + one folder per case) into validated ``Case`` models.

A case folder holds case.toml, instruction.md, workspace/, tests/, solution/solve.sh and, when the
case has them, hidden/ (a seeded generator of stress tests) and checkpoints/ (progress checks).
docs/SUITES.md describes every field. The suite's validation record (validation.json, written by
``nightshift validate-suite``) supplies the flaky tests each case must not score.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import tomllib
from pathlib import Path

from pydantic import ValidationError

from nightshift.errors import SuiteError
from nightshift.experiment.config import SplitBudget
from nightshift.metrics import MetricError, resolve_metric
from nightshift.models import Case, CaseLimits, CaseTiming, Checkpoint, HiddenTests, MetricSpec
from nightshift.splits.grants import BudgetRule
from nightshift.splits.keys import SPLITS, SplitAccessError, how_to_get_access, split_key
from nightshift.suites.sealed import is_sealed, sealed_case, sealed_split
from nightshift.suites.sealed import open_case as open_sealed_case

VALIDATION_FILE = "validation.json"
# where the sandbox itself mounts things: a case's workdir alias may not sit on them
_RESERVED_TOP = {"", "workspace", "grader", "tmp", "proc", "dev", "sys"}


def tree_hash(root: Path) -> str:
    """sha256 over relative paths, modes and contents of every file under root, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = path.relative_to(root).as_posix()
        digest.update(rel.encode() + b"\0" + oct(path.stat().st_mode & 0o111).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _field_error(meta_path: Path, exc: ValidationError, prefix: str = "") -> SuiteError:
    first = exc.errors()[0]
    field = ".".join([prefix] * bool(prefix) + [str(p) for p in first["loc"]])
    return SuiteError(f"{meta_path}: field '{field}': {first['msg']}")


def load_case(folder: Path, suite_name: str, default_split: str = "public") -> Case:
    """One plain case folder (``default_split``: suite.toml's 'split', for a case.toml without one)."""
    meta_path = folder / "case.toml"
    try:
        meta = tomllib.loads(meta_path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SuiteError(f"{meta_path}: cannot read case metadata: {exc}") from exc
    instruction_path = folder / "instruction.md"
    if not instruction_path.is_file():
        raise SuiteError(f"{instruction_path}: missing; every case needs the agent's instruction")
    if meta.get("id", folder.name) != folder.name:
        raise SuiteError(f"{meta_path}: field 'id' is {meta['id']!r} but the folder is {folder.name!r}; "
                         f"make them equal")
    if str(meta.get("image", "")).startswith("pypi:"):
        raise SuiteError(f"{meta_path}: field 'image' = {meta['image']!r} is a shipped recipe, not an image; run "
                         f"`nightshift build-suite {folder.parent}` and use the suite it builds (name it 'pypi' or "
                         f"by this folder: both resolve to the built copy)")
    tests = meta.get("tests", {})
    try:
        hidden = HiddenTests(**meta["hidden"]) if "hidden" in meta else None
    except ValidationError as exc:
        raise _field_error(meta_path, exc, "hidden") from None
    try:
        checkpoints = [Checkpoint(**c) for c in meta.get("checkpoints", [])]
    except ValidationError as exc:
        raise _field_error(meta_path, exc, "checkpoints") from None
    try:
        timing = CaseTiming(**meta["timing"]) if "timing" in meta else None
    except (ValidationError, TypeError) as exc:
        if isinstance(exc, TypeError):
            raise SuiteError(f"{meta_path}: field 'timing': expected a table ([timing]), got "
                             f"{meta['timing']!r}") from None
        raise _field_error(meta_path, exc, "timing") from None
    try:
        case = Case(
            id=folder.name, suite=suite_name, domain=meta.get("domain", ""), split=meta.get("split", default_split),
            instruction=instruction_path.read_text(), root=folder.resolve(),
            fail_to_pass=tests.get("fail_to_pass", []), pass_to_pass=tests.get("pass_to_pass", []),
            limits=CaseLimits(**meta.get("limits", {})), content_hash=tree_hash(folder),
            image=meta.get("image"), hidden=hidden, checkpoints=checkpoints, invalid=meta.get("invalid"),
            workdir=meta.get("sandbox", {}).get("workdir"), sidecars=meta.get("sidecars", []),
            test_runner=tests.get("runner"), test_log_format=tests.get("log_format", "nightshift"), timing=timing,
        )
    except ValidationError as exc:
        raise _field_error(meta_path, exc) from None
    _check_references(case, meta_path)
    return case


def _check_references(case: Case, meta_path: Path) -> None:
    """Every name case.toml mentions must have its file, so grading never meets a missing test."""
    if not case.domain:
        raise SuiteError(f"{meta_path}: field 'domain' is missing; name the case's domain")
    if not case.fail_to_pass:
        raise SuiteError(f"{meta_path}: field 'tests.fail_to_pass' is empty; list the tests the fix must pass")
    if case.test_runner:
        if case.test_log_format == "harbor":
            raise SuiteError(f"{meta_path}: field 'tests.log_format' = 'harbor' is for a single Harbor verifier "
                             f"test, not a tests.runner; remove one of them")
        if not (case.tests_dir / case.test_runner).is_file():
            raise SuiteError(f"{meta_path}: field 'tests.runner': tests/{case.test_runner} does not exist")
    else:
        for name in case.fail_to_pass + case.pass_to_pass:
            if case.timing is not None and name == case.timing.name:
                continue  # decided by the timing step, not by a file
            if not test_file(case, name):
                raise SuiteError(f"{meta_path}: test {name!r} has no file tests/test_{name}.py or .sh; add it or "
                                 f"remove it from the list")
    known = set(case.fail_to_pass + case.pass_to_pass)
    for mark in case.checkpoints:
        unknown = sorted(set(mark.tests) - known)
        if unknown:
            raise SuiteError(f"{meta_path}: checkpoint {mark.name!r} names tests {unknown} that are not in "
                             f"tests.fail_to_pass or tests.pass_to_pass")
        if not mark.tests and not checkpoint_file(case, mark.name):
            raise SuiteError(f"{meta_path}: checkpoint {mark.name!r} has neither 'tests' nor a file "
                             f"checkpoints/check_{mark.name}.py or .sh; add one")
    if case.timing is not None:
        _check_timing(case, meta_path)
    if case.hidden and not (case.root / case.hidden.generator).is_file():
        raise SuiteError(f"{meta_path}: field 'hidden.generator': {case.hidden.generator} does not exist in "
                         f"the case folder")
    if case.workdir is not None and (not case.workdir.startswith("/") or ".." in case.workdir.split("/")
                                     or case.workdir.rstrip("/").split("/")[1] in _RESERVED_TOP):
        raise SuiteError(f"{meta_path}: field 'sandbox.workdir' = {case.workdir!r}: must be an absolute path outside "
                         f"{', '.join('/' + t for t in sorted(_RESERVED_TOP))}; fix the path")
    if not case.solution_script.is_file():
        raise SuiteError(f"{case.solution_script}: missing; every case needs an oracle solution")


def _check_timing(case: Case, meta_path: Path) -> None:
    """A timing step needs its FAIL_TO_PASS name, its baseline and workload files, and no test runner."""
    timing = case.timing
    assert timing is not None
    if timing.name not in case.fail_to_pass:
        raise SuiteError(f"{meta_path}: field 'timing.name' = {timing.name!r} is not in tests.fail_to_pass; add it "
                         f"there (the timing step decides that test)")
    if case.test_runner:
        raise SuiteError(f"{meta_path}: field 'timing': a case with a tests.runner cannot also have a timing step; "
                         f"remove one of them")
    for field in ("baseline", "workload"):
        rel = getattr(timing, field)
        path = case.root / rel
        if ".." in Path(rel).parts or not path.is_file() or path.parent != case.root / "timing":
            raise SuiteError(f"{meta_path}: field 'timing.{field}': {rel} must be a file in the case's timing/ folder")


def _script(folder: Path, stem: str) -> Path | None:
    for suffix in (".py", ".sh"):
        candidate = folder / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def test_file(case: Case, name: str) -> Path | None:
    """tests/test_<name>.py or .sh of a case, or None."""
    return _script(case.tests_dir, f"test_{name}")


def checkpoint_file(case: Case, name: str) -> Path | None:
    """checkpoints/check_<name>.py or .sh of a case, or None."""
    return _script(case.root / "checkpoints", f"check_{name}")


def _flaky_tests(suite_dir: Path) -> dict[str, tuple[str, list[str]]]:
    """Case id -> (content hash it was validated at, tests found flaky), from the validation record."""
    path = suite_dir / VALIDATION_FILE
    if not path.is_file():
        return {}
    try:
        record = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise SuiteError(f"{path}: not valid JSON ({exc}); delete it and run nightshift validate-suite") from exc
    return {cid: (c.get("content_hash", ""), c.get("flaky", [])) for cid, c in record.get("cases", {}).items()}


def load_cases(suite_dir: Path, only: list[str] | None = None, key_secrets: dict[str, str] | None = None
               ) -> list[Case]:
    """All cases of a suite folder, sorted by id; ``only`` keeps just those ids (unknown ids are an error).
    Sealed cases are opened with their split's key (``key_secrets``: split -> a Prefect Secret block holding it,
    for where the environment variable is not set); without a key they are refused with how to get one."""
    suite_dir = Path(suite_dir)
    meta_path = suite_dir / "suite.toml"
    if not meta_path.is_file():
        raise SuiteError(f"{meta_path}: missing; a suite folder needs suite.toml with at least name = '...'")
    try:
        suite_meta = tomllib.loads(meta_path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"{meta_path}: not valid TOML ({exc})") from exc
    name = suite_meta.get("name", suite_dir.name)
    metrics = suite_metrics(meta_path, suite_meta.get("metrics", []))
    default_split = suite_split(meta_path, suite_meta)
    suite_budgets(suite_dir)  # a bad budget is a bad suite, said when it is loaded
    folders = case_folders(suite_dir)
    if only is not None:
        missing = sorted(set(only) - {d.name for d in folders})
        if missing:
            raise SuiteError(f"cases {missing} are not in suite {suite_dir}; check the 'cases' list")
        folders = [d for d in folders if d.name in set(only)]
    _refuse_without_keys(suite_dir, folders, key_secrets)
    cases = [sealed_case(d, name, key_secrets, load_case) if is_sealed(d) else load_case(d, name, default_split)
             for d in folders]
    flaky = _flaky_tests(suite_dir)
    for case in cases:
        validated_hash, names = flaky.get(case.id, ("", []))
        if validated_hash == case.content_hash:
            case.excluded_tests = list(names)
        case.metrics = metrics
    return cases


def case_folders(suite_dir: Path) -> list[Path]:
    """The case folders of a suite, plain (case.toml) or sealed (sealed.toml), sorted by id."""
    return [d for d in sorted(Path(suite_dir).iterdir()) if (d / "case.toml").is_file() or is_sealed(d)]


def suite_budgets(suite_dir: Path) -> list[BudgetRule]:
    """suite.toml's ``[budget.<split>]`` tables (runs, days): the split owner's budget, which holds whatever the
    experiment says (docs/SPLITS.md)."""
    meta_path = Path(suite_dir) / "suite.toml"
    try:
        raw = tomllib.loads(meta_path.read_text()).get("budget", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SuiteError(f"{meta_path}: cannot read it ({exc})") from exc
    if not isinstance(raw, dict):
        raise SuiteError(f"{meta_path}: field 'budget': expected tables [budget.heldout] / [budget.commercial]")
    rules: list[BudgetRule] = []
    for split, table in sorted(raw.items()):
        if split not in SPLITS[1:]:
            raise SuiteError(f"{meta_path}: field 'budget.{split}': only 'heldout' and 'commercial' have budgets")
        try:
            rules.append((f"{meta_path}: field 'budget.{split}'", split, SplitBudget.model_validate(table)))
        except ValidationError as exc:
            raise _field_error(meta_path, exc, f"budget.{split}") from None
    return rules


def suite_split(meta_path: Path, suite_meta: dict) -> str:
    """suite.toml's 'split': the split of every case whose case.toml names none."""
    split = suite_meta.get("split", "public")
    if split not in SPLITS:
        raise SuiteError(f"{meta_path}: field 'split' = {split!r}; use one of {', '.join(SPLITS)}")
    return str(split)


def _refuse_without_keys(suite_dir: Path, folders: list[Path], key_secrets: dict[str, str] | None) -> None:
    """Every sealed case chosen needs its split's key: refuse them all at once, naming split, cases and how to get
    access, before anything runs."""
    locked: dict[str, list[str]] = {}
    for folder in folders:
        if is_sealed(folder):
            split = sealed_split(folder)
            if split_key(split, (key_secrets or {}).get(split)) is None:
                locked.setdefault(split, []).append(folder.name)
    if locked:
        lines = [f"{len(ids)} sealed {split} cases of suite {suite_dir} need the {split} key: {', '.join(ids)}; "
                 f"{how_to_get_access(split, (key_secrets or {}).get(split))}" for split, ids in locked.items()]
        raise SplitAccessError("no grant: " + "\n".join(lines), splits=tuple(locked))


def open_case(case: Case, key_secrets: dict[str, str] | None = None) -> contextlib.AbstractContextManager[Case]:
    """The case with its files readable for a ``with`` block (a sealed case opened in private memory)."""
    return open_sealed_case(case, load_case, key_secrets)


def suite_metrics(meta_path: Path, raw: object) -> list[MetricSpec]:
    """suite.toml's ``metrics``: a list of names or of {use, name, settings} tables, each resolved now."""


    if not isinstance(raw, list):
        raise SuiteError(f"{meta_path}: field 'metrics': expected a list (metrics = [\"time_to_pass\"] or "
                         f"[[metrics]] tables), got {type(raw).__name__}")
    specs = []
    for index, item in enumerate(raw):
        try:
            spec = MetricSpec.model_validate(item)
            resolve_metric(spec)
        except ValidationError as exc:
            raise _field_error(meta_path, exc, f"metrics.{index}") from None
        except MetricError as exc:
            raise SuiteError(f"{meta_path}: field 'metrics.{index}.{exc.field}': {exc}") from None
        specs.append(spec)
    return specs
