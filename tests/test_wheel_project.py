"""nightshift as a team uses it: the built wheel installed into a fresh venv, driven from an empty project
folder that has its own `tasks.py` and `analysis/` (the names that used to shadow nightshift's modules).

The fresh venv gets the wheel with --no-deps; its dependencies come from this venv's site-packages through
a .pth (a folder of links to everything there except nightshift itself), because a full dependency install
would take minutes. Everything else is real: `python -m build`, `nightshift init`, `validate-suite`,
a `prefect server start` + process worker from `nightshift serve`, `prefect deployment run
nightly-eval/nightly`, `nightshift run --ephemeral` and `nightshift compare`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import httpx
import pyarrow.parquet as pq
import pytest

import nightshift
from nightshift.deployments.worker_image import build_wheel
from tests.conftest import BUILTIN, REPO, free_port

# raise on import: if anything imported the project's own modules instead of nightshift's, the command fails
SHADOW = "raise ImportError('the project\\'s own {} module was imported instead of nightshift\\'s')\n"


def _wheel(tmp: Path) -> Path:
    """The wheel as the worker image builds it: from a clean copy of the source."""
    return build_wheel(REPO, tmp / "dist")


def _fresh_venv(tmp: Path, wheel: Path) -> Path:
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, text=True)
    deps = tmp / "deps"  # this venv's packages without nightshift (its editable install would win otherwise)
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if "nightshift" not in entry.name.lower():
            (deps / entry.name).symlink_to(entry)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "_nightshift_test_deps.pth").write_text(f"{deps}\n")
    return venv


class Project:
    """An empty project folder, driven with the fresh venv's commands."""

    def __init__(self, folder: Path, venv: Path, home: Path) -> None:
        self.folder, self.venv = folder, venv
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_API_URL", "NIGHTSHIFT_HOME",
                                                                              "VIRTUAL_ENV", "PYTHONPATH",
                                                                              "PREFECT_API_AUTH_STRING"))}
        self.env.update(PATH=f"{venv / 'bin'}:{os.environ['PATH']}", PREFECT_HOME=str(home), DO_NOT_TRACK="1")

    def run(self, *argv: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(list(argv), cwd=self.folder, env=self.env, capture_output=True, text=True,
                                timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(argv)} exited {result.returncode}:\n{result.stdout[-3000:]}\n"
                                 f"{result.stderr[-3000:]}")
        return result

    def nightshift(self, *args: str, **kw) -> subprocess.CompletedProcess:
        return self.run(str(self.venv / "bin" / "nightshift"), *args, **kw)

    def prefect(self, *args: str, **kw) -> subprocess.CompletedProcess:
        return self.run(str(self.venv / "bin" / "python"), "-m", "prefect", *args, **kw)


def _wait_for(flow_run_url: str, credential: Path, timeout_s: float = 600) -> str:
    """The final state of a flow run (polled over HTTP: a `prefect` CLI process per poll costs seconds of CPU),
    with the credential `serve` made for the project's server."""
    from nightshift.deployments.auth import basic_header

    headers = basic_header(credential.read_text().strip())
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = httpx.get(flow_run_url, headers=headers, timeout=30).json()["state"]
        if state and state["type"] in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED"):
            return f"{state['type']}: {state.get('message')}"
        time.sleep(2)
    return f"not final after {timeout_s:.0f}s"


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp, t0 = tmp_path_factory.mktemp("wheel"), time.monotonic()
    wheel = _wheel(tmp)
    venv = _fresh_venv(tmp, wheel)
    folder = tmp / "my-evals"
    folder.mkdir()
    (folder / "tasks.py").write_text(SHADOW.format("tasks"))
    (folder / "analysis").mkdir()
    (folder / "analysis" / "__init__.py").write_text(SHADOW.format("analysis"))
    project = Project(folder, venv, tmp / "prefect-home")
    out: dict = {"wheel": wheel, "project": project, "folder": folder, "built_s": time.monotonic() - t0}
    out["where"] = project.run(str(venv / "bin" / "python"), "-c", "import nightshift; print(nightshift.__file__)"
                               ).stdout.strip()
    out["init"] = project.nightshift("init")
    out["init_again"] = project.nightshift("init", check=False)
    out["validate"] = project.nightshift("validate-suite", "suites/starter")
    out["build_image"] = project.nightshift("build-image")  # the docker base image from the wheel (content-cached)
    out["validate_builtin"] = project.nightshift("validate-suite", "builtin", "--cases", "py-bugfix-slugify",
                                                 "--repeats", "1", check=False)
    timings = out["timings"] = {"wheel_and_venv_s": out["built_s"]}
    started = time.monotonic()
    try:
        port = free_port()
        out["serve"] = project.nightshift("serve", "--port", str(port))
        timings["serve_s"] = time.monotonic() - started
        # the profile serve pointed here, with the server's credential (this environment has none)
        run = project.prefect("deployment", "run", "nightly-eval/nightly")
        flow_run = re.search(r"UUID: ([0-9a-f-]{36})", run.stdout).group(1)
        out["deployment_state"] = _wait_for(f"http://127.0.0.1:{port}/api/flow_runs/{flow_run}",
                                            folder / ".nightshift" / "prefect-server.auth")
        timings["deployment_run_s"] = time.monotonic() - started - timings["serve_s"]
    finally:
        out["stop"] = project.nightshift("server", "stop", check=False)
    exp = (folder / "experiments" / "default.yaml").read_text().replace("name: default", "name: second")
    (folder / "experiments" / "second.yaml").write_text(exp)
    started = time.monotonic()
    out["cli_run"] = project.nightshift("run", "--ephemeral", "experiments/second.yaml")
    timings["ephemeral_run_s"] = time.monotonic() - started
    runs = {p.name.split("-")[0]: p for p in (folder / "runs").glob("*-*") if (p / "results.parquet").is_file()}
    out["runs"] = runs
    if {"default", "second"} <= set(runs):
        out["compare"] = project.nightshift("compare", str(runs["default"]), str(runs["second"]), check=False)
    return out


# the whole fixture runs inside the first test: wheel, venv, server, a deployment run and a CLI run
@pytest.mark.timeout(1500)
def test_the_wheel_carries_the_suite_and_the_templates(night: dict) -> None:
    names = zipfile.ZipFile(night["wheel"]).namelist()
    cases = {p.parent.name for p in BUILTIN.glob("*/case.toml")}
    shipped = {n.split("/")[-2] for n in names if n.startswith("nightshift/suites/builtin/") and
               n.endswith("/case.toml")}
    assert shipped == cases and len(cases) >= 40
    assert "nightshift/suites/builtin/validation.json" in names
    assert {"nightshift/deployments/templates/docker.json", "nightshift/deployments/templates/kubernetes.json",
            "nightshift/templates/project/prefect.yaml", "nightshift/templates/project/experiments/default.yaml",
            "nightshift/templates/project/suites/starter/fix-median/case.toml",
            "nightshift/examples/plan_act.py"} <= set(names)  # what `nightshift init --example harness` copies
    assert {n.split("/")[0] for n in names} <= {"nightshift", f"{night['wheel'].name.split('-py3')[0]}.dist-info"}
    modules = {f"nightshift/{p.relative_to(REPO).as_posix()}" for part in nightshift.PARTS
               for p in (REPO / part).rglob("*.py") if "__pycache__" not in p.parts}
    modules |= {f"nightshift/{p.name}" for p in (REPO / "nightshift").glob("*.py")}
    assert modules - set(names) == set()  # every module of the checkout is in the wheel


def test_the_commands_are_the_wheel_s_not_the_checkout_s(night: dict) -> None:
    assert night["where"].startswith(str(night["project"].venv)), night["where"]


def test_init_writes_the_starter_project_and_never_overwrites(night: dict) -> None:
    folder = night["folder"]
    for rel in ("experiments/default.yaml", "prefect.yaml", ".gitignore", "suites/starter/suite.toml",
                "suites/starter/fix-median/case.toml", "suites/starter/fix-median/solution/solve.sh"):
        assert (folder / rel).is_file(), rel
    assert "name: my-evals" in (folder / "prefect.yaml").read_text()
    again = night["init_again"]
    assert again.returncode == 2 and "prefect.yaml" in again.stdout and "--force" in again.stdout
    assert (folder / "tasks.py").read_text() == SHADOW.format("tasks")  # the project's own files are untouched


def test_validate_suite_records_the_starter_suite(night: dict) -> None:
    record = json.loads((night["folder"] / "suites" / "starter" / "validation.json").read_text())
    assert record["cases"]["fix-median"]["ok"] is True, night["validate"].stdout


def test_validating_the_shipped_suite_writes_nothing_into_site_packages(night: dict) -> None:
    said = night["validate_builtin"].stdout
    assert night["validate_builtin"].returncode == 0, said + night["validate_builtin"].stderr
    assert "1/1 cases valid" in said and "not written" in said and "installed package" in said
    shipped = next(night["project"].venv.rglob("site-packages/nightshift/suites/builtin/validation.json"))
    assert shipped.read_bytes() == (BUILTIN / "validation.json").read_bytes()


def test_the_nightly_deployment_runs_from_the_project_folder(night: dict) -> None:
    assert night["deployment_state"].startswith("COMPLETED"), night["deployment_state"]
    assert "stopped" in night["stop"].stdout
    table = pq.read_table(night["runs"]["default"] / "results.parquet")
    assert table.num_rows == 4 and set(table.column("case_id").to_pylist()) == {"fix-median"}
    assert not (night["folder"] / "experiments" / "runs").exists()  # output_dir is relative to the file
    assert (night["folder"] / ".nightshift" / "prefect").is_dir()  # the project's own server state


def test_the_wheel_builds_the_sandbox_base_image(night: dict) -> None:
    from nightshift.sandbox.images import latest_build

    assert night["build_image"].stdout.strip() == latest_build().image_id  # the same content key, reused


def test_run_and_compare_from_the_project_folder(night: dict) -> None:
    assert "results.parquet (4 trials)" in night["cli_run"].stdout
    # after `serve` wrote PREFECT_API_URL into the profile: the temporary server is used, and its events too
    assert "| ERROR" not in night["cli_run"].stdout + night["cli_run"].stderr, night["cli_run"].stderr[-3000:]
    compare = night["compare"]
    assert compare.returncode == 0, compare.stdout + compare.stderr
    assert "strong" in compare.stdout and "weak" in compare.stdout
    print("wheel project timings:", {k: round(v, 1) for k, v in night["timings"].items()})
