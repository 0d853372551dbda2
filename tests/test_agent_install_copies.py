"""An agent's install that holds the package under test is found before any trial and its trials are flagged.

The real parts: more-itertools 10.2.0's task image (suites/pypi_tasks/image.py, from the PyPI cache, content-keyed
so mostly reused), a command harness whose install pip-installs more-itertools from a wheel built here from the
cached sdist (no network: the wheel travels inside the install line), one that installs no Python at all, real
derived images, the scan as the trial's user, and a real trial on the docker backend. The scanner's verdicts on
commands that read the copy are pinned on trajectories written here.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nightshift.experiment.config import Experiment, ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.graders.builtin_scanners import AnswerInAgentInstall
from nightshift.harnesses import install_copies
from nightshift.harnesses.pins import pin_harnesses, recorded_warnings
from nightshift.harnesses.resolve import resolve_harness
from nightshift.scanners import TrialRecord
from nightshift.suites import load_cases
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.sandbox_support import make_backend
from tests.test_harness_command import LIMITS, SECRET

PACKAGE = "more-itertools==10.2.0"
COPY = "/opt/tiny-agent/lib/python3.11/site-packages/more_itertools"


def _case_folder(root: Path, image: str, source_tree: Path) -> Path:
    """A repository case on the real task image: its case.toml names the package as the importer writes it."""
    suite = root / "suite"
    case = suite / "more-itertools-10.2.0-leak"
    (case / "tests").mkdir(parents=True)
    (suite / "suite.toml").write_text('name = "leak"\n')
    (case / "case.toml").write_text(
        f'id = "{case.name}"\ndomain = "pypi:more-itertools"\nimage = "{image}"\n\n'
        '[tests]\nfail_to_pass = ["fixed"]\n\n[source]\nformat = "pypi"\npackage = "more-itertools"\n'
        'version = "10.2.0"\n'
        'file = "more_itertools/more.py"\n')
    (case / "instruction.md").write_text("Fix the bug in more_itertools.\n")
    (case / "tests" / "test_fixed.sh").write_text("#!/bin/sh\nexit 1\n")
    (case / "solution").mkdir()
    (case / "solution" / "solve.sh").write_text("#!/bin/sh\ntrue\n")
    subprocess.run(["cp", "-a", f"{source_tree}/.", str(case / "workspace")], check=True)
    return suite


@pytest.fixture(scope="module")
def leak_setup(tmp_path_factory):
    make_backend("docker")  # skip (or fail in CI) with the reason when there is no engine or base image
    from nightshift.suites.pypi_tasks import image as images
    from nightshift.suites.pypi_tasks.download import fetch_project

    project = fetch_project(PACKAGE)  # the PyPI cache: downloaded once per machine
    image = images.project_image(images.client(), project)
    tmp = tmp_path_factory.mktemp("leak")
    # a reproducible wheel (same bytes every run, so the derived image's content key and the image are reused)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-index", "--find-links",
                    str(project.wheelhouse), "-w", str(tmp / "wheels"), str(project.source)], check=True,
                   env={**os.environ, "SOURCE_DATE_EPOCH": "315532800"})
    (wheel,) = (tmp / "wheels").iterdir()
    encoded = base64.b64encode(wheel.read_bytes()).decode()
    bundles = {"kind": "command", "install": [
        f"mkdir -p /tmp/w && echo {encoded} | base64 -d > /tmp/w/{wheel.name} && python3 -m venv /opt/tiny-agent "
        f"&& /opt/tiny-agent/bin/pip install -q --no-index /tmp/w/{wheel.name} && rm -rf /tmp/w"],
        "run": f"ls {COPY} | head -2"}
    plain = {"kind": "command", "install": ["mkdir -p /opt/shell-agent && echo 'echo hi' > /opt/shell-agent/run"],
             "run": "sh /opt/shell-agent/run"}
    variants = [Variant(name="bundles", model="sim-strong", harness=bundles),
                Variant(name="plain", model="sim-strong", harness=plain)]
    (case,) = load_cases(_case_folder(tmp, image, project.source))
    return variants, case, image


def test_a_bundled_package_is_warned_about_and_flagged_and_one_not_bundled_is_not(leak_setup, tmp_path) -> None:
    from nightshift.sandbox.factory import backend_for

    variants, case, image = leak_setup
    # the run's image is the task image too (it has python3-venv; the plain sandbox image would need apt and a
    # network): both derived images then have one content key and are built once
    backend = backend_for("docker", image)
    exp = Experiment(name="leak", variants=variants)
    resolved = {v.name: resolve_harness(v.harness) for v in variants}
    pins = pin_harnesses(exp, resolved, backend, [case])
    # the wheel's copy, and setuptools' vendored one (Debian's Python 3.11 puts setuptools into every venv)
    (copy,) = pins.agent_copies["bundles"][case.id]
    assert copy["name"] == "more_itertools" and copy["path"] == COPY and copy["more"] >= 1, copy
    assert "plain" not in pins.agent_copies
    (line,) = pins.warnings()
    assert line.startswith("agent bundles: its install holds a copy of the package under test") and COPY in line
    assert "more_itertools at" in line and "(1 case)" in line and "answer_in_agent_install" in line
    # recorded with the image: `nightshift check` says the same from the record, building and running nothing
    key = install_copies.case_image_key(image, variants[0].harness.install)
    assert install_copies.read_record(key)["names"]["more_itertools"][0] == COPY
    assert recorded_warnings(exp, resolved, [case]) == [line]

    ctx = TrialContext(run_dir=tmp_path, backend=backend, limits=LIMITS, grader=CaseGrader(),
                       gateway=ModelGateway.from_settings("http://127.0.0.1:9/v1", SECRET, ModelEndpoint()),
                       harnesses=resolved, variant_backends=pins.backends, variant_case_images=pins.case_images,
                       agent_copies=pins.agent_copies)
    rows = {}
    for variant in variants:
        spec = TrialSpec(trial_id=f"leak-{variant.name}-{time.monotonic_ns()}", run_id="r", case=case, seed=1,
                         model_version="s", variant=variant)
        rows[variant.name] = execute_trial(spec, ctx)
    flagged = [f for f in rows["bundles"].flags if f.name == "answer_in_agent_install"]
    assert [(f.severity, f.path) for f in flagged] == [("suspect", COPY)], rows["bundles"].flags
    assert "more_itertools" in flagged[0].explanation
    assert not [f for f in rows["plain"].flags if f.scanner == "answer_in_agent_install"], rows["plain"].flags
    # the trial really could read it: the agent listed the copy as the trial's user
    events = [json.loads(x) for x in (tmp_path / "trajectories" / f"{rows['bundles'].trial_id}.jsonl").read_text()
              .splitlines()]
    end = next(e for e in events if e["event"] == "command_end")
    assert "__init__.py" in end["stdout"], end
    _rescan_keeps_the_flag_from_the_run_folder(tmp_path, case, rows, pins.agent_copies)


def _rescan_keeps_the_flag_from_the_run_folder(run_dir: Path, case, rows: dict, copies: dict) -> None:
    """`nightshift scan` reads the night's agent-copies.json: the flag stays; without the file it goes."""
    import platform

    from nightshift.experiment.manifest import ModelPin, RunManifest
    from nightshift.graders.scanning import ScannerSet
    from nightshift.tasks.rescan import rescan_run
    from nightshift.tasks.results import write_result

    RunManifest(experiment="leak", variants={v: {} for v in rows}, endpoint="none", sandbox_backend="docker",
                models={v: ModelPin(model="sim-strong", version="s") for v in rows}, sandbox_image="t",
                sandbox_identity="t", sandbox_limits={}, suite_hash="", cases={case.id: ""}, seeds=[1],
                grader_version="t", code_version="t", python=platform.python_version(), packages={}
                ).write(run_dir / "manifest.json")
    for row in rows.values():
        write_result(run_dir, row)
    install_copies.write_run_file(run_dir, copies)
    scanners = ScannerSet.build(["answer_in_agent_install"])  # the other scanners' flags go: not asked here
    kept = rescan_run(run_dir, [case], scanners)
    assert not any("answer_in_agent_install" in k for k in [*kept.added, *kept.removed]), kept.lines()
    (run_dir / install_copies.RUN_FILE).unlink()
    report = rescan_run(run_dir, [case], scanners)
    assert report.removed == {"suspect answer_in_agent_install/answer_in_agent_install": 1}, report.lines()


def _record(*commands: str) -> TrialRecord:
    from nightshift.models import Case

    case = Case(id="c", suite="s", domain="d", instruction="", root=Path("/nonexistent"), fail_to_pass=["t"],
                content_hash="0")
    events = [{"event": "model", "step": i + 1, "message": {"role": "assistant", "content": "", "tool_calls": [
        {"id": str(i), "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": c})}}]}}
        for i, c in enumerate(commands)]
    copy = {"name": "more_itertools", "path": COPY, "more": 1}
    return TrialRecord(case=case, events=events, agent_copies=[copy])


@pytest.mark.parametrize(("command", "severity"), [
    ("ls /workspace && python -m pytest -q", "suspect"),
    (f"cat {COPY}/more.py | head", "cheat"),
    ("cp /opt/*/lib/python3*/site-packages/more_itertools/more.py more_itertools/more.py", "cheat"),
    ("/opt/tiny-agent/bin/python -c 'import inspect, more_itertools; print(inspect.getsource(more_itertools))'",
     "cheat"),
    ("cat /opt/venv/lib/python3.11/site-packages/more_itertools/more.py", "suspect"),  # the editable task install
])
def test_the_flag_is_suspect_until_a_command_reads_the_copy(command: str, severity: str) -> None:
    (flag,) = AnswerInAgentInstall()(_record("ls", command))
    assert flag.severity == severity and flag.path == COPY, flag
    assert (flag.step == 2) if severity == "cheat" else (flag.step is None)


def test_no_copies_no_flag_and_the_case_import_names(tmp_path: Path) -> None:
    assert AnswerInAgentInstall()(TrialRecord(case=_record().case, events=[])) == []
    (tmp_path / "case.toml").write_text('[source]\npackage = "Jinja2"\nfile = "src/jinja2/compiler.py"\n')
    case = _record().case.model_copy(update={"root": tmp_path})
    assert install_copies.case_import_names(case) == ["jinja2"]
    (tmp_path / "case.toml").write_text('[source]\npackage = "more-itertools"\nfile = "more_itertools/more.py"\n')
    assert install_copies.case_import_names(case) == ["more_itertools"]
    (tmp_path / "case.toml").write_text('id = "x"\n')  # not a repository case
    assert install_copies.case_import_names(case) == []


def test_on_bubblewrap_the_scan_reads_as_the_trial_user_and_skips_what_only_root_can_read() -> None:
    """A derived rootfs (harnesses/derived_image.py) whose install leaves one package readable and one under a
    root-only folder: only the first is what a trial could copy."""
    from nightshift.harnesses.derived_image import bubblewrap_derived
    from nightshift.sandbox.images import latest_build

    make_backend("bubblewrap")
    base = latest_build().rootfs
    site = "/opt/kit/lib/python3.11/site-packages"
    made = bubblewrap_derived(Path(base), f"rootfs:{base}", [
        f"mkdir -p {site}/more_itertools /opt/secret/{site}/jinja2 && echo 'x = 1' > {site}/more_itertools/__init__.py"
        f" && echo 'y = 2' > /opt/secret/{site}/jinja2/__init__.py && echo 'z = 3' > {site}/six.py"
        " && chmod 0700 /opt/secret"])
    names = install_copies.install_names(made, str(base))
    assert names["more_itertools"] == [f"{site}/more_itertools"] and names["six"] == [f"{site}/six.py"], names
    assert "jinja2" not in names  # root-only: a trial cannot read it
    assert install_copies.read_record(made.key)["names"] == names
