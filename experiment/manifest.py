"""The run manifest: every pin that decides whether two runs can be compared, and its content hash."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import pkgutil
import platform
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

import nightshift
from nightshift.experiment.config import Experiment
from nightshift.experiment.hidden_seed import night_seed
from nightshift.models import Case

KEY_PACKAGES = ("prefect", "openai", "duckdb", "pyarrow", "pydantic", "tenacity", "nightshift")


def canonical_hash(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


class ModelPin(BaseModel):
    model: str
    version: str = Field(description="What the endpoint reported serving (the 'model' field of a reply).")


class RunManifest(BaseModel):
    """Pins of one run. Everything but ``created_at``, ``analysis``, ``scanners`` (and an empty ``replay_of``) goes
    into the hash."""

    experiment: str
    variants: dict[str, dict[str, Any]] = Field(description="Full variant settings by name.")
    models: dict[str, ModelPin] = Field(description="Resolved model version by variant name.")
    harnesses: dict[str, dict[str, Any]] = Field({}, description="Harness identity by variant name: kind, entrypoint, "
                                       "settings, version or content hash; install, run and derived image id.")
    endpoint: str
    endpoint_protocol: str = Field("chat", description="The wire protocol the gateway spoke to the endpoint "
                                   "(model.protocol): chat, responses or anthropic.")
    sandbox_backend: str
    sandbox_image: str
    sandbox_identity: str = Field(description="Image digest / id, or the bubblewrap root's content identity.")
    sandbox_limits: dict[str, Any]
    suite_hash: str
    cases: dict[str, str] = Field(description="case id -> content hash.")
    case_images: dict[str, str] = Field({}, description="case id -> the image its sandboxes run, for cases with "
                                        "their own (a Harbor task's built image id); the others run sandbox_image.")
    seeds: list[int]
    hidden_seed: int = Field(0, description="The night's hidden-test seed; each case's seed derives from it.")
    suite_validation: dict[str, str] = Field({}, description="Suite name -> 'validated', or why it ran "
                                             "unvalidated (allow_unvalidated: true).")
    grader_version: str
    code_version: str
    python: str
    packages: dict[str, str]
    metrics: dict[str, list[dict[str, Any]]] = Field({}, description="Suite name -> its metrics' identities (name, "
                                                     "use, source, version or content hash, settings), in column "
                                                     "order.")
    scanners: list[dict[str, Any]] = Field([], description="The scanners' identities (name, use, source, version, "
                                           "settings); not in the hash unless the flag policy fails trials: a "
                                           "re-scan (nightshift scan) changes no outcome.")
    flag_policy: dict[str, str] = Field({}, description="The experiment's `flags:` (severity -> report|fail); "
                                        "empty: flags are only reported.")
    analysis: dict[str, Any] = Field({}, description="How the results are read (the experiment's `analysis:`, e.g. "
                                     "broken_arm_fraction); not a pin, so not in the hash: it changes no outcome.")
    replay_of: str = Field("", description="The run this one replays (nightshift replay), by run id; empty for a "
                           "night of its own. In the hash and in every trial id: a replay runs its trials afresh.")
    created_at: str = ""

    def pins(self) -> dict[str, Any]:
        pins = self.model_dump(exclude={"created_at", "analysis", "scanners"})
        if not self.replay_of:  # a night of its own hashes as it did before replays existed
            del pins["replay_of"]
        return pins

    @property
    def manifest_hash(self) -> str:
        return canonical_hash(self.pins())

    @property
    def run_id(self) -> str:
        return f"{self.experiment}-{self.manifest_hash[:12]}"

    def trial_pins(self, variant: str) -> dict[str, Any]:
        """The pins one trial depends on: not the case list or seed list, so adding cases or seeds
        leaves the ids (and cached results) of existing trials unchanged."""
        return {"model": self.models[variant].model_dump(), "harness": self.harnesses.get(variant, {}),
                "sandbox": self.sandbox_identity,
                "limits": self.sandbox_limits, "grader": self.grader_version, "code": self.code_version,
                "packages": self.packages, "hidden_seed": self.hidden_seed,
                **({"replay_of": self.replay_of} if self.replay_of else {})}  # unset: ids of other runs unchanged

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**self.model_dump(), "manifest_hash": self.manifest_hash}, indent=2) + "\n")
        tmp.replace(path)

    @classmethod
    def read(cls, path: Path) -> RunManifest:
        return cls.model_validate({k: v for k, v in json.loads(path.read_text()).items() if k != "manifest_hash"})


def code_version() -> str:
    """nightshift's version plus a content hash of every module it is made of, installed or checked out.

    A hash, not a git sha: the same code gives the same pin from a wheel, an image or a checkout, and an
    edit anywhere in nightshift changes it. NIGHTSHIFT_CODE_VERSION overrides it.
    """
    if os.environ.get("NIGHTSHIFT_CODE_VERSION"):
        return os.environ["NIGHTSHIFT_CODE_VERSION"]
    return f"{nightshift.__version__}+{_source_hash()}"


@functools.cache
def _source_hash() -> str:
    digest = hashlib.sha256()
    for name in sorted(set(_package_modules())):  # installed, a part is also a module of nightshift/ itself
        spec = importlib.util.find_spec(name)
        if spec and spec.origin and spec.origin.endswith(".py"):
            digest.update(name.encode() + b"\0" + Path(spec.origin).read_bytes())
    return digest.hexdigest()[:16]


def _package_modules() -> list[str]:
    """Every module of nightshift (the mapped parts are not under nightshift/ in a checkout: walk each)."""
    names = [info.name for info in pkgutil.iter_modules(nightshift.__path__, "nightshift.")]
    for part in nightshift.PARTS:
        spec = importlib.util.find_spec(f"nightshift.{part}")
        assert spec is not None and spec.submodule_search_locations is not None, part  # each part is a package
        names.append(f"nightshift.{part}")
        names += [info.name for info in pkgutil.walk_packages(spec.submodule_search_locations, f"nightshift.{part}.")]
    return names


def package_versions() -> dict[str, str]:
    versions = {}
    for name in KEY_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def build_manifest(exp: Experiment, cases: list[Case], models: dict[str, ModelPin], endpoint: str,
                   sandbox_identity: str, grader_version: str, suite_validation: dict[str, str] | None = None,
                   harnesses: dict[str, dict[str, Any]] | None = None,
                   metrics: dict[str, list[dict[str, Any]]] | None = None,
                   scanners: list[dict[str, Any]] | None = None) -> RunManifest:
    return RunManifest(
        experiment=exp.name, variants={v.name: v.model_dump() for v in exp.variants}, models=models,
        harnesses=harnesses or {},
        endpoint=endpoint, endpoint_protocol=exp.model.protocol, sandbox_backend=exp.sandbox.backend,
        sandbox_image=exp.sandbox.image,
        sandbox_identity=sandbox_identity, sandbox_limits=exp.sandbox.limits.model_dump(),
        suite_hash=suite_hash(cases), cases={c.id: c.content_hash for c in cases}, seeds=exp.seeds,
        hidden_seed=night_seed(exp.name, exp.hidden_seed), suite_validation=suite_validation or {},
        case_images={c.id: c.image for c in cases if c.image},
        grader_version=grader_version, code_version=code_version(), python=platform.python_version(),
        packages=package_versions(), metrics=metrics or {}, analysis=exp.analysis.model_dump(),
        scanners=scanners or [], flag_policy={} if exp.flags.is_default() else exp.flags.actions(),
        replay_of=exp.replay_of or "",
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def suite_hash(cases: list[Case]) -> str:
    """Hash of the exact case list and contents a run uses."""
    digest = hashlib.sha256()
    for case in sorted(cases, key=lambda c: (c.suite, c.id)):
        digest.update(f"{case.suite}/{case.id}:{case.content_hash}\n".encode())
    return digest.hexdigest()
