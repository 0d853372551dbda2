"""The run manifest: every pin that decides whether two runs can be compared, and its content hash."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from pydantic import BaseModel, Field

from experiment.config import Experiment
from nightshift.models import Case
from suites.loader import suite_hash

_REPO_ROOT = Path(__file__).resolve().parent.parent
KEY_PACKAGES = ("prefect", "openai", "duckdb", "pyarrow", "pydantic", "tenacity", "nightshift")


def canonical_hash(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


class ModelPin(BaseModel):
    model: str
    version: str = Field(description="What the endpoint reported serving (the 'model' field of a reply).")


class RunManifest(BaseModel):
    """Pins of one run. Everything but ``created_at`` goes into the hash."""

    experiment: str
    variants: dict[str, dict] = Field(description="Full variant settings by name.")
    models: dict[str, ModelPin] = Field(description="Resolved model version by variant name.")
    endpoint: str
    sandbox_backend: str
    sandbox_image: str
    sandbox_identity: str = Field(description="Image digest / id, or the bubblewrap root's content identity.")
    sandbox_limits: dict
    suite_hash: str
    cases: dict[str, str] = Field(description="case id -> content hash.")
    seeds: list[int]
    grader_version: str
    code_version: str
    python: str
    packages: dict[str, str]
    created_at: str = ""

    def pins(self) -> dict:
        return self.model_dump(exclude={"created_at"})

    @property
    def manifest_hash(self) -> str:
        return canonical_hash(self.pins())

    @property
    def run_id(self) -> str:
        return f"{self.experiment}-{self.manifest_hash[:12]}"

    def trial_pins(self, variant: str) -> dict:
        """The pins one trial depends on: not the case list or seed list, so adding cases or seeds
        leaves the ids (and cached results) of existing trials unchanged."""
        return {"model": self.models[variant].model_dump(), "sandbox": self.sandbox_identity,
                "limits": self.sandbox_limits, "grader": self.grader_version, "code": self.code_version,
                "packages": self.packages}

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**self.model_dump(), "manifest_hash": self.manifest_hash}, indent=2) + "\n")
        tmp.replace(path)

    @classmethod
    def read(cls, path: Path) -> RunManifest:
        return cls.model_validate({k: v for k, v in json.loads(path.read_text()).items() if k != "manifest_hash"})


def code_version() -> str:
    """git sha of the checkout, with a content hash of uncommitted changes when the tree is dirty.

    NIGHTSHIFT_CODE_VERSION overrides it, for code deployed without its .git folder (an image, a wheel).
    """
    if os.environ.get("NIGHTSHIFT_CODE_VERSION"):
        return os.environ["NIGHTSHIFT_CODE_VERSION"]
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=_REPO_ROOT, capture_output=True, text=True).stdout.strip()

    sha = git("rev-parse", "HEAD")
    if not sha:
        return "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return f"{sha}+dirty.{hashlib.sha256(git('diff', 'HEAD').encode()).hexdigest()[:12]}" if dirty else sha


def package_versions() -> dict[str, str]:
    versions = {}
    for name in KEY_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def build_manifest(exp: Experiment, cases: list[Case], models: dict[str, ModelPin], endpoint: str,
                   sandbox_identity: str, grader_version: str) -> RunManifest:
    return RunManifest(
        experiment=exp.name, variants={v.name: v.model_dump() for v in exp.variants}, models=models,
        endpoint=endpoint, sandbox_backend=exp.sandbox.backend, sandbox_image=exp.sandbox.image,
        sandbox_identity=sandbox_identity, sandbox_limits=exp.sandbox.limits.model_dump(),
        suite_hash=suite_hash(cases), cases={c.id: c.content_hash for c in cases}, seeds=exp.seeds,
        grader_version=grader_version, code_version=code_version(), python=platform.python_version(),
        packages=package_versions(), created_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
