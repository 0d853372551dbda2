"""Keep what a night needs to be replayed, and turn a past night back into an experiment file (nightshift replay).

At the start of every night ``record_night`` stores its suite version (suites/store.py) and the experiment as it
was read (``experiment.json`` in the run folder). ``prepare_replay`` reads a run folder back: the manifest pins the
cases and their contents, the sandbox image, the case images, the harnesses, the seeds, the hidden seed and the
limits; the store gives the suite version. It writes an experiment file for a new night that runs exactly those,
with the harness the run pinned or today's, and refuses before any trial — naming the missing piece and the fix —
when something the night used is gone or changed: the suite version, the sandbox or a case image, a pinned
harness, the key of a protected split.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import docker
import duckdb
import yaml

from nightshift.atomic_files import atomic_write_text
from nightshift.errors import ConfigurationError, NightshiftError
from nightshift.experiment.config import Experiment, Variant, load_experiment
from nightshift.experiment.manifest import RunManifest
from nightshift.flows.trial_context import load_run_cases
from nightshift.models import Case
from nightshift.preflight import CheckedExperiment, check_experiment
from nightshift.sandbox import backend_for
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.suites.store import keep_suite_version, store_root, stored_suite_dirs, stored_version

RECORD = "experiment.json"
REPLAYS_DIR = ".replays"
HarnessChoice = Literal["pinned", "today"]
_IMAGE_PINS = ("image", "image_key", "case_images")  # added by harnesses/pins.py when the image is built


class ReplayRefused(ConfigurationError):
    """A past night cannot be replayed as it ran: the message names what is missing and how to get it back."""


def record_night(run_dir: Path, file: Path, exp: Experiment, manifest: RunManifest, cases: Sequence[Case],
                 suite_dirs: Sequence[Path]) -> Path:
    """Store the night's suite version and its experiment settings; returns the stored version's folder."""
    stored = keep_suite_version(exp.output_dir, manifest.suite_hash, cases, suite_dirs, exp.key_secrets())
    record = {"file": str(file), "experiment": exp.model_dump(mode="json")}
    atomic_write_text(run_dir / RECORD, json.dumps(record, indent=2) + "\n")
    return stored


def find_run(run: str) -> Path:
    """A run folder given as a path, or as a run id under ./runs."""
    for candidate in (Path(run), Path("runs") / run):
        if (candidate / "manifest.json").is_file():
            return candidate.resolve()
    raise ReplayRefused(f"{run}: no run folder with a manifest.json there (nor under runs/); pass the folder of the "
                        f"run, e.g. runs/<experiment>-<hash>")


def prepare_replay(run_dir: Path, harness: HarnessChoice = "pinned", name: str | None = None
                   ) -> tuple[CheckedExperiment, RunManifest]:
    """The checked experiment of a replay of ``run_dir`` (its file under <output_dir>/.replays/) and the original
    manifest, once every pin it needs is here; ReplayRefused (or the loader's no-grant refusal) otherwise."""
    manifest = RunManifest.read(run_dir / "manifest.json")
    record = _record(run_dir)
    output_dir = run_dir.parent
    stored = stored_version(output_dir, manifest.suite_hash)
    if stored is None:
        raise ReplayRefused(f"replay of {manifest.run_id}: its suite version {manifest.suite_hash[:12]} is not in "
                            f"the suite store {store_root(output_dir)} (the night ran before nightshift kept suite "
                            f"versions, or the store was removed); restore {store_root(output_dir)} from a backup")
    exp = Experiment.model_validate(record["experiment"])
    variants = [v.model_dump(mode="json") for v in _variants(manifest, record, harness)]
    image = manifest.sandbox_image
    if manifest.sandbox_identity.startswith("docker:"):
        image = manifest.sandbox_identity.removeprefix("docker:")  # the image id itself, whatever the tag says now
    replay = exp.model_copy(update={
        "name": name or f"{manifest.experiment}-replay", "suites": [str(d) for d in stored_suite_dirs(stored)],
        "cases": None, "seeds": manifest.seeds, "hidden_seed": manifest.hidden_seed, "replay_of": manifest.run_id,
        "output_dir": output_dir, "result_storage": exp.result_storage,
    }).model_dump(mode="json", exclude={"variants", "sandbox", "schedule"})
    replay["variants"] = variants
    replay["sandbox"] = {"backend": manifest.sandbox_backend, "image": image, "limits": manifest.sandbox_limits}
    replay["schedule"] = {"history": "none", "order": exp.schedule.order}  # another night's durations: not a pin
    file = output_dir / REPLAYS_DIR / f"{replay['name']}.yaml"
    atomic_write_text(file, f"# written by `nightshift replay {run_dir}`: a replay of {manifest.run_id}\n"
                      + yaml.safe_dump(replay, sort_keys=False))
    checked = check_experiment(file)
    _check_pins(checked, manifest, harness)
    return checked, manifest


def _record(run_dir: Path) -> dict[str, Any]:
    path = run_dir / RECORD
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        raise ReplayRefused(f"{path}: missing (the night ran before nightshift recorded its experiment); a replay "
                            f"needs it: run the night again with this version to make it replayable") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ReplayRefused(f"{path}: cannot read it ({exc}); restore the run folder from a backup") from None
    if not isinstance(record, dict) or not isinstance(record.get("experiment"), dict):
        raise ReplayRefused(f"{path}: field 'experiment' is missing; restore the run folder from a backup")
    return record


def _variants(manifest: RunManifest, record: dict[str, Any], harness: HarnessChoice) -> list[Variant]:
    """The run's variants; with ``today`` each keeps its model but takes the harness its experiment file names now."""
    pinned = [Variant.model_validate(v) for v in manifest.variants.values()]
    if harness == "pinned":
        return pinned
    file = Path(record["file"])
    try:
        today = {v.name: v for v in load_experiment(file).variants}
    except ConfigurationError as exc:
        raise ReplayRefused(f"--harness today reads each variant's harness from {file}, which does not load now "
                            f"({exc}); fix it, or replay with --harness pinned") from None
    missing = [v.name for v in pinned if v.name not in today]
    if missing:
        raise ReplayRefused(f"--harness today: {file} has no variant {', '.join(missing)} any more; add it back, or "
                            f"replay with --harness pinned")
    return [v.model_copy(update={"harness": today[v.name].harness}) for v in pinned]


def _check_pins(checked: CheckedExperiment, manifest: RunManifest, harness: HarnessChoice) -> None:
    """Everything the night ran is here as it was, or the replay is refused before any trial."""
    problems = []
    cases = load_run_cases(checked)  # a sealed case needs its split's key: refused here, naming the fix
    stored = {c.id: c.content_hash for c in cases}
    if stored != manifest.cases:
        problems.append(f"the stored suite version does not hold the run's cases as they were (damaged?); remove "
                        f"{store_root(checked.exp.output_dir) / manifest.suite_hash} and restore it from a backup")
    try:
        identity = backend_for(manifest.sandbox_backend, checked.exp.sandbox.image).identity()
    except (NightshiftError, OSError) as exc:
        identity = f"unavailable ({exc})"
    if identity != manifest.sandbox_identity:
        problems.append(f"sandbox image {manifest.sandbox_image!r}: the run pinned {manifest.sandbox_identity}, "
                        f"here it is {identity}; restore that image (nightshift images lists what runs keep)")
    for case_id, image in sorted(manifest.case_images.items()):
        if not image_exists(image):
            problems.append(f"case {case_id}: its image {image} is gone; import its suite again to rebuild it")
    if harness == "pinned":
        problems += _pinned_harness_problems(checked, manifest)
    if problems:
        raise ReplayRefused(f"replay of {manifest.run_id} refused before any trial:\n  " + "\n  ".join(problems))


def _pinned_harness_problems(checked: CheckedExperiment, manifest: RunManifest) -> list[str]:
    problems = []
    for variant, pinned in sorted(manifest.harnesses.items()):
        now = {k: v for k, v in checked.harnesses[variant].identity.items() if k not in _IMAGE_PINS}
        was = {k: v for k, v in pinned.items() if k not in _IMAGE_PINS}
        if now != was:
            changed = sorted(k for k in set(now) | set(was) if now.get(k) != was.get(k))
            problems.append(f"variant {variant}: its harness is not the one the run pinned ({', '.join(changed)}: "
                            f"{[was.get(k) for k in changed]} then, {[now.get(k) for k in changed]} now); install "
                            f"the pinned one, or replay with --harness today")
        images = [pinned["image"]] if pinned.get("image") else []
        for image in images + sorted(pinned.get("case_images", {}).values()):
            if not image_exists(image):
                problems.append(f"variant {variant}: its harness image {image} is gone (pruned?); replay with "
                                f"--harness today to build it again from its install lines")
    return problems


def image_exists(image: str) -> bool:
    """A docker image id or name, a bubblewrap root filesystem folder, or a pinned identity of either."""
    if image.startswith("rootfs:"):  # a bubblewrap identity: rootfs:<path>:sha256:<content>
        return Path(image.removeprefix("rootfs:").rsplit(":sha256:", 1)[0]).is_dir()
    if image.startswith("/"):
        return Path(image).is_dir()
    client = docker_engine("checking the images a replay needs", "start dockerd", timeout_s=30,
                           error=ReplayRefused)
    try:
        client.images.get(image.removeprefix("docker:"))
    except docker.errors.ImageNotFound:
        return False
    return True


def reproduced(original: Path, replay: Path) -> tuple[int, list[str]]:
    """How many of the original's trials (variant, case, seed) the replay gave the same status and score, and a
    line for each that differs."""
    query = "SELECT variant, case_id, seed, status, score FROM read_parquet(?)"
    before = {r[:3]: r[3:] for r in duckdb.execute(query, [str(original)]).fetchall()}
    after = {r[:3]: r[3:] for r in duckdb.execute(query, [str(replay)]).fetchall()}
    differ = [f"{variant}/{case}/seed {seed}: {before[variant, case, seed]} then, "
              f"{after.get((variant, case, seed), 'no row')} now" for variant, case, seed in sorted(before)
              if after.get((variant, case, seed)) != before[variant, case, seed]]
    return len(before) - len(differ), differ
