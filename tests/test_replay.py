"""Any past night replayable: every night keeps its suite version in the store (a sealed case still sealed), two
generations of one suite live side by side, and `nightshift replay` runs a v1 night again on v1 after the folder
became v2 — same cases, same per-trial status and score (the simulator plays deterministically) — or refuses before
any trial, naming what is gone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from cryptography.fernet import Fernet

from nightshift.cli import main
from nightshift.experiment.manifest import RunManifest
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.flows.replay import ReplayRefused, prepare_replay
from nightshift.splits import SplitAccessError
from nightshift.suites import load_cases
from nightshift.suites.store import keep_suite_version, stored_suite_dirs, stored_version
from tests.conftest import BUILTIN
from tests.splits_support import HELD_OUT_CASE, PUBLIC_CASE, canaried_suite, canary

ENV = "NIGHTSHIFT_SPLIT_KEY_HELDOUT"


def _outcomes(parquet: str | Path) -> dict[tuple, tuple]:
    query = "SELECT variant, case_id, seed, status, score, trial_id FROM read_parquet(?)"
    return {r[:3]: r[3:] for r in duckdb.execute(query, [str(parquet)]).fetchall()}


def _files_with(mark: bytes, root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and mark in p.read_bytes()]


def test_a_v1_night_replays_on_v1_after_its_suite_became_v2(tmp_path: Path, prefect_server,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    mark = canary()
    suite = canaried_suite(tmp_path, mark)
    key_file = tmp_path / "heldout.key"
    assert main(["seal", str(suite), "--split", "heldout", "--key-file", str(key_file)]) == 0
    monkeypatch.setenv(ENV, key_file.read_text().strip())
    exp = tmp_path / "exp.yaml"
    exp.write_text(f"""
name: gen
suites: [{suite}]
variants: [{{name: strong, model: sim-strong}}, {{name: weak, model: sim-weak}}]
seeds: [3]
concurrency: 4
allow_unvalidated: true
model: {{simulator: {{latency_ms: 5}}}}
output_dir: out
""")
    v1 = nightly_eval(experiment_file=str(exp))
    v1_dir = Path(v1["run_dir"])
    v1_manifest = RunManifest.read(v1_dir / "manifest.json")
    stored = stored_version(tmp_path / "out", v1_manifest.suite_hash)
    assert stored is not None and (stored / "0-suite" / HELD_OUT_CASE / "case.tar.fernet").is_file()
    assert _files_with(mark.encode(), tmp_path / "out" / ".suites") == []  # stored sealed, never opened onto disk

    fixed = suite / PUBLIC_CASE / "instruction.md"  # v2: the same suite with one case fixed
    fixed.write_text(fixed.read_text() + "\nKeep the function's name.\n")
    v2 = nightly_eval(experiment_file=str(exp))
    v2_manifest = RunManifest.read(Path(v2["run_dir"]) / "manifest.json")
    assert v2_manifest.suite_hash != v1_manifest.suite_hash
    assert v2_manifest.cases[PUBLIC_CASE] != v1_manifest.cases[PUBLIC_CASE]
    assert sorted(p.name for p in (tmp_path / "out" / ".suites").iterdir()) == sorted(
        [v1_manifest.suite_hash, v2_manifest.suite_hash])  # both generations side by side

    assert main(["replay", str(v1_dir), "--out", "gen-again"]) == 0
    replay_dir = next(d for d in (tmp_path / "out").iterdir() if d.name.startswith("gen-again-"))
    replay = RunManifest.read(replay_dir / "manifest.json")
    assert replay.replay_of == v1_manifest.run_id
    assert replay.cases == v1_manifest.cases and replay.suite_hash == v1_manifest.suite_hash  # v1, not the folder's v2
    assert (replay.seeds, replay.hidden_seed, replay.sandbox_limits) == (
        v1_manifest.seeds, v1_manifest.hidden_seed, v1_manifest.sandbox_limits)
    before, after = _outcomes(v1["parquet"]), _outcomes(replay_dir / "results.parquet")
    assert len({v[0] for v in before.values()}) > 1  # not all one status: sim-weak fails a case at this seed
    assert len(before) == 4 and {k: v[:2] for k, v in after.items()} == {k: v[:2] for k, v in before.items()}
    assert not {v[2] for v in after.values()} & {v[2] for v in before.values()}  # run afresh, not read from a cache
    assert json.loads((replay_dir / "summary.json").read_text())["trials"] == 4

    prepare_replay(v1_dir, "today")  # today's harness, from the experiment file as it is now
    exp.write_text(exp.read_text().replace("name: weak", "name: weaker"))
    with pytest.raises(ReplayRefused, match=f"--harness today: {exp} has no variant weak any more"):
        prepare_replay(v1_dir, "today")

    monkeypatch.delenv(ENV)  # the held-out key is part of what a replay needs
    with pytest.raises(SplitAccessError, match=f"need the heldout key: {HELD_OUT_CASE}"):
        prepare_replay(v1_dir)
    monkeypatch.setenv(ENV, key_file.read_text().strip())

    shutil.move(stored, tmp_path / "aside")  # the suite version gone from the store
    with pytest.raises(ReplayRefused, match=f"suite version {v1_manifest.suite_hash[:12]} is not in the suite store"):
        prepare_replay(v1_dir)
    shutil.move(tmp_path / "aside", stored)

    gone = v1_dir.parent / "gen-gone"  # a run whose case image and sandbox root are gone since
    shutil.copytree(v1_dir, gone)
    pins = json.loads((gone / "manifest.json").read_text())
    no_image = "sha256:" + "0" * 64  # a docker image id the engine does not hold
    pins["case_images"] = {HELD_OUT_CASE: str(tmp_path / "no-such-rootfs"), PUBLIC_CASE: no_image}
    pins["sandbox_identity"] = "rootfs:/:sha256:" + "0" * 64
    pins["harnesses"]["strong"]["version"] = "0.0.1-then"  # the harness was another version then
    (gone / "manifest.json").write_text(json.dumps(pins))
    with pytest.raises(ReplayRefused) as refused:
        prepare_replay(gone)
    assert f"case {HELD_OUT_CASE}: its image {tmp_path / 'no-such-rootfs'} is gone" in str(refused.value)
    assert f"case {PUBLIC_CASE}: its image {no_image} is gone" in str(refused.value)
    assert "the run pinned rootfs:/:sha256:000" in str(refused.value)
    assert "variant strong: its harness is not the one the run pinned (version" in str(refused.value)
    assert "weak" not in str(refused.value)
    assert main(["replay", str(gone)]) == 2  # the CLI says so in one line, exit 2, before Prefect hears of it


def test_the_store_keeps_a_plain_held_out_case_sealed_and_writes_each_version_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = load_cases(BUILTIN, ["py-feature-semver", PUBLIC_CASE])  # the built-in held-out case is in the clear
    monkeypatch.setenv(ENV, Fernet.generate_key().decode())
    folder = keep_suite_version(tmp_path, "v1hash", cases, [BUILTIN])
    held_out, public = folder / "0-builtin" / "py-feature-semver", folder / "0-builtin" / PUBLIC_CASE
    assert sorted(p.name for p in held_out.iterdir()) == ["case.tar.fernet", "sealed.toml"]
    assert (public / "instruction.md").is_file()
    written = (folder / "suite.json").stat().st_mtime_ns
    assert keep_suite_version(tmp_path, "v1hash", cases, [BUILTIN]) == folder  # once: the second night writes nothing
    assert (folder / "suite.json").stat().st_mtime_ns == written
    again = load_cases(stored_suite_dirs(folder)[0])
    assert {c.id: c.content_hash for c in again} == {c.id: c.content_hash for c in cases}
    assert [c.sealed for c in again] == [False, True]
    assert not [p for p in tmp_path.joinpath(".suites").iterdir() if p.name.startswith(".")]  # no staging left


def test_images_prune_removes_only_derived_images_no_kept_run_pins(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def no_engine(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("no docker here")  # the shared engine's images are not this test's to remove

    monkeypatch.setattr("nightshift.sandbox.docker_engine.docker_engine", no_engine)
    monkeypatch.setenv("NIGHTSHIFT_IMAGE_CACHE", str(tmp_path / "cache"))
    kept, unused = (tmp_path / "cache" / "derived" / key / "rootfs" for key in ("k1", "k2"))
    for rootfs in (kept, unused):
        (rootfs / "usr").mkdir(parents=True)
    run = tmp_path / "runs" / "night-abc"
    run.mkdir(parents=True)
    (run / "manifest.json").write_text(json.dumps({"sandbox_identity": "rootfs:/:sha256:1", "harnesses": {
        "agent": {"kind": "command", "image": f"rootfs:{kept}:sha256:{'2' * 64}"}}}))
    assert main(["images", str(tmp_path / "no-such-store"), "--prune"]) == 2  # a mistyped store prunes nothing
    assert main(["images", str(tmp_path / "runs"), "--prune"]) == 0
    assert kept.is_dir() and not unused.parent.exists()
    (run / "manifest.json").unlink()  # the run's folder gone: its image is no longer kept
    assert main(["images", str(tmp_path / "runs"), "--prune"]) == 0
    assert not kept.parent.exists()
