"""The shipped repository suite (``suites/pypi/``): small recipes in git, full case folders built per machine.

A case of an imported PyPI suite is mostly the package's own sdist (its workspace and pristine tests) and an
image id that exists only on the machine that built it. The shipped folder keeps neither: per case it keeps
case.toml (with ``image = "pypi:NAME==VERSION"``, a recipe reference), the instruction, the gold and breaking
patches (not the scripts that apply them: the build writes those) and the grading scripts; suite.toml pins each
sdist by sha256. ``nightshift build-suite pypi``
downloads the pinned sdists and their test wheels (build time, never trial time), builds each project image
(content-keyed: a machine that has it builds nothing), unpacks each workspace and writes the built suite as
ordinary case folders under the suite cache, the image pinned by id. An injected-bug case's workspace is its
sdist with the bug put back (the gold patch reversed); a release-pair case (``[source] new_version``) is the
older sdist as shipped, in the older release's image, graded by the newer sdist's tests, as pair_import.py
makes it. Both are checked against the workspace hash the case records. ``ship`` makes the recipes from
imported suites.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from nightshift.errors import SuiteError
from nightshift.resources import state_dir
from nightshift.suites.loader import tree_hash
from nightshift.suites.pypi_tasks import _source_files
from nightshift.suites.pypi_tasks import image as images
from nightshift.suites.pypi_tasks.case import _NO_COPY, WORKDIR, difficulty
from nightshift.suites.pypi_tasks.download import Project, Refused, fetch_project
from nightshift.suites.pypi_tasks.layout import GRADING_HELPERS, find_layout, write_grading_files
from nightshift.suites.pypi_tasks.pair_case import pair_difficulty
from nightshift.suites.pypi_tasks.pair_import import pair_parts, write_pair_grading
from nightshift.suites.swebench import apply_script

SHIPPED = Path(str(resources.files("nightshift.suites").joinpath("pypi")))  # checked where it is used
RECIPE = "pypi:"  # case.toml's image in a recipe: the package whose project image the build pins
_COMMITTED = ("case.toml", "instruction.md", "solution", "tests/run_tests.sh", "tests/config")
# the same in every case, so not kept 54 times in git: each built case gets the importer's copies
_STAMP = ".built-from"
_SCRIPTS = "*.sh"  # solution/'s apply scripts: each one its patch inside the same script, so the build writes them
_HIDDEN = shutil.ignore_patterns(".*", "__pycache__")
_NO_SCRIPTS = shutil.ignore_patterns(".*", "__pycache__", _SCRIPTS)


def _tree_hash(root: Path) -> str:
    return tree_hash(root)


def recipe_hash(recipe: Path) -> str:
    """sha256 over the recipe's files, leaving out hidden ones (a linter's or editor's cache is no change)."""
    digest = hashlib.sha256()
    root = Path(recipe)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        digest.update(rel.as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def build_hash(recipe: Path) -> str:
    """The recipe's hash and the grading helpers the build copies into every case (guarded_pytest.py ...): a
    built suite is stale when either changed, or its cases would grade with yesterday's helpers."""
    digest = hashlib.sha256(recipe_hash(recipe).encode())
    for helper in sorted(GRADING_HELPERS):
        digest.update(helper.encode() + b"\0" + hashlib.sha256(Path(__file__).with_name(helper).read_bytes()).digest())
    return digest.hexdigest()


def is_recipe(suite_dir: Path) -> bool:
    """A shipped suite's recipe folder (its built copy keeps the suite.toml but has the build stamp)."""
    path = Path(suite_dir) / "suite.toml"
    return (path.is_file() and "shipped" in tomllib.loads(path.read_text())
            and not (Path(suite_dir) / _STAMP).is_file())


def built_dir(recipe: Path) -> Path:
    # catalog.suite_cache (catalog imports this module, so the one line is repeated here)
    cache = Path(os.environ.get("NIGHTSHIFT_SUITE_CACHE", state_dir() / "suites"))
    return cache / f"shipped-{Path(recipe).resolve().name}"


def built_suite(recipe: Path = SHIPPED) -> Path:
    """The built copy of a shipped suite; a SuiteError saying how to build it when it is missing or stale."""
    out = built_dir(recipe)
    stamp = out / _STAMP
    if not stamp.is_file():
        raise SuiteError(f"{recipe}: the shipped suite is not built on this machine; run `nightshift build-suite "
                         f"{recipe}` once (downloads its pinned sdists and test wheels, builds one image per "
                         f"package, a few minutes)")
    if json.loads(stamp.read_text()).get("recipe") != build_hash(recipe):
        raise SuiteError(f"{recipe}: changed since it was built into {out}; run `nightshift build-suite {recipe}` "
                         f"again")
    return out


def _cases(recipe: Path) -> list[tuple[Path, dict]]:
    found = []
    for folder in sorted(p for p in Path(recipe).iterdir() if (p / "case.toml").is_file()):
        meta = tomllib.loads((folder / "case.toml").read_text())
        if not str(meta.get("image", "")).startswith(RECIPE):
            raise SuiteError(f"{folder / 'case.toml'}: field 'image' must be \"{RECIPE}NAME==VERSION\" in a "
                             f"shipped suite (the build pins the id); got {meta.get('image')!r}")
        source = meta.get("source", {})
        if source.get("task_source") == "release pair" and not source.get("new_version"):
            raise SuiteError(f"{folder / 'case.toml'}: field 'source.new_version' is missing; a release pair is graded "
                             f"by the newer release's tests, so its recipe names that release")
        committed = sorted((folder / "solution").glob(_SCRIPTS))
        if committed:  # a second copy of its patch, which the build would overwrite
            raise SuiteError(f"{committed[0]}: a shipped recipe keeps only the patches; the build writes solution/'s "
                             f"scripts from them (solve.sh from gold.patch), so delete it")
        _apply_scripts(folder / "solution")  # a missing gold patch named before anything is downloaded
        found.append((folder, meta))
    if not found:
        raise SuiteError(f"{recipe}: no case folders; a shipped suite needs at least one")
    return found


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sdist_file(project_source: Path) -> Path:
    (archive,) = sorted((project_source.parent.parent / "sdist").iterdir())  # download.py's cache layout
    return archive


@dataclass
class Built:
    out: Path
    images: dict[str, str] = field(default_factory=dict)  # spec -> image id
    seconds: dict[str, float] = field(default_factory=dict)  # spec -> download + image build
    cases: int = 0


def _put_bug_back(workspace: Path, gold: Path, where: Path) -> None:
    """The gold patch reversed over the pristine sdist: the workspace the task was imported with."""
    proc = subprocess.run(["patch", "-R", "-p1", "-s", "--no-backup-if-mismatch", "-d", str(workspace), "-i",
                           str(gold)], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise SuiteError(f"{where}: its gold patch does not reverse onto the pinned sdist: "
                         f"{(proc.stdout + proc.stderr).strip()[:300]}")


def _new_spec(meta: dict) -> str | None:
    """``NAME==NEW`` for a release-pair case (its grading tests come from that sdist), None for an injected bug."""
    new = meta.get("source", {}).get("new_version")
    return f"{meta['source']['package']}=={new}" if new else None


def _pinned(spec: str, pins: dict[str, str], where: Path) -> Project:
    """``spec``'s sdist (downloaded once per machine), refused unless it is the pinned file."""
    project = fetch_project(spec)
    got = _sha256(_sdist_file(project.source))
    if got != pins[spec]:
        raise SuiteError(f"{where}: field 'shipped.sdist_sha256.\"{spec}\"': PyPI's sdist has sha256 {got}, not "
                         f"the pinned {pins[spec]}; the tasks were made from another file")
    return project


def build(recipe: Path = SHIPPED, out: Path | None = None, log=print) -> Built:
    """Build every case of the shipped ``recipe`` into ``out`` (default: the suite cache); see the module doc."""
    recipe = Path(recipe).resolve()
    suite_meta = tomllib.loads((recipe / "suite.toml").read_text())
    pins: dict[str, str] = suite_meta.get("shipped", {}).get("sdist_sha256", {})
    cases = _cases(recipe)
    specs = sorted({str(meta["image"])[len(RECIPE):] for _, meta in cases})
    newer = {spec for _, meta in cases if (spec := _new_spec(meta))}
    unpinned = sorted((set(specs) | newer) - set(pins))
    if unpinned:
        raise SuiteError(f"{recipe / 'suite.toml'}: field 'shipped.sdist_sha256' has no pin for {unpinned}; add "
                         f"the sdist's sha256 for each (a release pair pins both releases)")
    out = Path(out or built_dir(recipe))
    staging = out.with_name(out.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    shutil.copy2(recipe / "suite.toml", staging / "suite.toml")
    result = Built(out=out)
    client = images.client()
    for spec in specs:
        started = time.monotonic()
        group = [(folder, meta) for folder, meta in cases if meta["image"] == RECIPE + spec]
        with tempfile.TemporaryDirectory(prefix="nightshift-shipped-") as scratch:
            try:
                project = _pinned(spec, pins, recipe / "suite.toml")
                gradings, originals = _gradings(project, group, pins, recipe / "suite.toml", Path(scratch))
                image_id = images.clean_project_image(client, project, sorted(originals))
            except Refused as exc:
                raise SuiteError(f"build-suite {recipe}: {spec}: {exc}") from None
            result.images[spec], result.seconds[spec] = image_id, round(time.monotonic() - started, 1)
            log(f"{spec}: image {image_id[:19]} ({result.seconds[spec]} s)")
            for folder, meta in group:
                _build_case(folder, meta, staging / folder.name, project.source, gradings[_new_spec(meta)],
                            image_id, _NO_COPY)
                result.cases += 1
    (staging / _STAMP).write_text(json.dumps({"recipe": build_hash(recipe), "images": result.images,
                                              "seconds": result.seconds}, indent=1) + "\n")
    if (out / "validation.json").is_file():  # its records are per content hash: one of a changed case is ignored
        shutil.copy2(out / "validation.json", staging / "validation.json")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return result


def _gradings(project: Project, group: list[tuple[Path, dict]], pins: dict[str, str], where: Path,
              scratch: Path) -> tuple[dict[str | None, Path], set[Path]]:
    """The tests/ folder each case of one image is graded with (key: the newer release, None for an injected
    bug: the project's own tests) and the files the leak scan of that image looks for (as each importer does)."""
    gradings: dict[str | None, Path] = {}
    originals: set[Path] = set()
    for new_spec in sorted({_new_spec(meta) for _, meta in group}, key=str):
        tests_dir = scratch / (new_spec or "own") / "tests"
        if new_spec is None:
            layout = find_layout(project.source)
            write_grading_files(project.source, layout, tests_dir)
            originals.update(_source_files(project.source, layout))
        else:
            new = _pinned(new_spec, pins, where)
            parts = pair_parts(project, new)
            write_pair_grading(new, parts.layout, tests_dir)
            originals.update(parts.originals)
        gradings[new_spec] = tests_dir
    return gradings, originals


def _copy_committed(folder: Path, into: Path) -> None:
    """The files a recipe keeps in git (``_COMMITTED``), from a case folder into another."""
    for rel in _COMMITTED:
        src = folder / rel
        if src.is_dir():
            shutil.copytree(src, into / rel, ignore=_NO_SCRIPTS if rel == "solution" else _HIDDEN)
        elif src.is_file():
            (into / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, into / rel)


def _apply_scripts(solution: Path) -> dict[str, bytes]:
    """solve.sh and each breaking_N.sh as the importers write them beside their patches (case.py, pair_case.py:
    ``apply_script`` of the patch's text), from the patches in ``solution``."""
    gold = solution / "gold.patch"
    if not gold.is_file():
        raise SuiteError(f"{gold}: missing; a shipped case keeps its gold patch (the build writes solve.sh from it)")
    scripts = {}
    for patch in [gold, *sorted(solution.glob("breaking_*.patch"))]:
        name = "solve.sh" if patch == gold else patch.with_suffix(".sh").name
        # bytes, not read_text: its newline translation would turn a patch's \r\n into \n
        scripts[name] = apply_script(patch.read_bytes().decode(), WORKDIR).encode()
    return scripts


def _check_scripts(solution: Path) -> None:
    """An imported case's apply scripts are the ones the build writes from its patches: the recipe keeps only the
    patches, so a script written another way would make the built case differ from the one validated."""
    kept = {p.name: p.read_bytes() for p in solution.glob(_SCRIPTS)}
    wanted = _apply_scripts(solution)
    for name in sorted(set(kept) | set(wanted)):
        if kept.get(name) != wanted.get(name):
            raise SuiteError(f"{solution / name}: not the apply script of the patch beside it (solve.sh of "
                             f"gold.patch, breaking_N.sh of breaking_N.patch); a recipe keeps only the patches and the "
                             f"build writes the scripts, so import the case again")


def _build_case(folder: Path, meta: dict, into: Path, source: Path, grading: Path, image_id: str, ignore) -> None:
    _copy_committed(folder, into)
    for name, script in _apply_scripts(folder / "solution").items():
        (into / "solution" / name).write_bytes(script)
    for helper in GRADING_HELPERS:
        shutil.copy2(Path(__file__).with_name(helper), into / "tests" / helper)
    shutil.copytree(grading / "pristine", into / "tests" / "pristine")
    workspace = into / "workspace"
    shutil.copytree(source, workspace, symlinks=True, ignore=ignore)
    new_spec = _new_spec(meta)
    if new_spec is None:
        _put_bug_back(workspace, folder / "solution" / "gold.patch", folder / "solution" / "gold.patch")
    else:  # the older sdist as shipped, graded by what the importer writes from the newer one
        _check_grading(folder, grading, new_spec)
    want = meta.get("source", {}).get("workspace_hash")
    if want and _tree_hash(workspace) != want:
        raise SuiteError(f"{folder / 'case.toml'}: field 'source.workspace_hash': the workspace built from the "
                         f"pinned sdist differs from the one the task was validated on")
    want = meta.get("source", {}).get("pristine_hash")
    if want and _tree_hash(into / "tests" / "pristine") != want:
        raise SuiteError(f"{folder / 'case.toml'}: field 'source.pristine_hash': the grading tests taken from the "
                         f"pinned sdist differ from the ones the task was validated on")
    text = (into / "case.toml").read_text().replace(f'image = "{meta["image"]}"', f'image = "{image_id}"', 1)
    (into / "case.toml").write_text(text)


def _check_grading(folder: Path, grading: Path, new_spec: str) -> None:
    """The recipe's run_tests.sh and pytest configuration are byte for byte what the pair importer writes from
    the newer sdist: grading code changed since the case was shipped (and validated) would change its verdicts."""
    wanted = ["run_tests.sh", *(f"config/{p.name}" for p in sorted((grading / "config").iterdir()))]
    kept = [p.relative_to(folder / "tests").as_posix() for p in (folder / "tests").rglob("*") if p.is_file()]
    kept = [rel for rel in kept if not any(part.startswith(".") or part == "__pycache__" for part in rel.split("/"))]
    for rel in sorted(set(wanted) | set(kept)):
        ours, theirs = folder / "tests" / rel, grading / rel
        if not ours.is_file() or not theirs.is_file() or ours.read_bytes() != theirs.read_bytes():
            raise SuiteError(f"{ours}: not what the importer writes from {new_spec}'s sdist (grading code changed "
                             f"since the case was shipped?); import the pair again, validate it and ship it "
                             f"(scripts/ship_pypi_suite.py)")


def ship(imported: list[Path], out: Path, only: set[str] | None = None) -> tuple[list[str], dict[str, str]]:
    """Recipes for the cases of imported PyPI suites (``only``: these ids), written into ``out``; returns the
    ids and the sha256 of each sdist they are built from (suite.toml's ``[shipped] sdist_sha256``; a release
    pair's two)."""
    out.mkdir(parents=True, exist_ok=True)
    pins: dict[str, str] = {}
    shipped = []
    for suite in imported:
        for folder in sorted(p for p in suite.iterdir() if (p / "case.toml").is_file()):
            if only is not None and folder.name not in only:
                continue
            _check_scripts(folder / "solution")  # before any download: the recipe will not keep them
            meta = tomllib.loads((folder / "case.toml").read_text())
            spec = f"{meta['source']['package']}=={meta['source']['version']}"
            new_spec = _new_spec(meta)  # a release pair: its grading tests come from the newer sdist, pinned too
            for pinned in filter(None, (spec, new_spec)):
                if pinned not in pins:
                    pins[pinned] = _sha256(_sdist_file(fetch_project(pinned).source))  # cached: no download
            target = out / folder.name
            shutil.rmtree(target, ignore_errors=True)
            _copy_committed(folder, target)
            text = (target / "case.toml").read_text().replace(f'image = "{meta["image"]}"',
                                                                f'image = "{RECIPE}{spec}"', 1)
            grade = meta["difficulty"]
            label = (pair_difficulty(grade["lines_changed"], grade["files_touched"]) if new_spec else
                     difficulty(grade["lines_changed"], meta["tests"]["fail_to_pass"],
                                meta["source"]["function"]))  # imported before the label's rule changed
            text = text.replace(f'label = "{grade["label"]}"', f'label = "{label}"', 1)
            hashes = f'workspace_hash = "{_tree_hash(folder / "workspace")}"\n'
            if new_spec:  # the newer sdist's tests: the build checks it takes the same ones
                hashes += f'pristine_hash = "{_tree_hash(folder / "tests" / "pristine")}"\n'
            text = text.replace("\n[difficulty]", f"{hashes}\n[difficulty]", 1)
            (target / "case.toml").write_text(text)
            shipped.append(folder.name)
    return shipped, pins
