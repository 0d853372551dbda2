"""A command harness's install lands on a case's own image (a Harbor task's), not only on the run's image.

Without it an agent CLI installed by `install` is simply missing in every trial of a case that pins its
own image ("mini: command not found"). The case image here is the sandbox base plus one marker file, built
locally; the install writes a second marker; the agent prints both.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from nightshift.experiment.config import Experiment, ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.harnesses.pins import pin_harnesses
from nightshift.harnesses.resolve import resolve_harness
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.sandbox_support import backend_image, make_backend
from tests.test_harness_command import LIMITS, SECRET

INSTALL = ["mkdir -p /opt/agent && echo installed > /opt/agent/marker"]
VARIANT = Variant(name="cli", model="sim-strong", harness={"kind": "command", "install": INSTALL,
                                                          "run": "cat /case-marker /opt/agent/marker"})


@pytest.fixture(scope="module")
def case_image() -> str:
    import docker

    client = docker.from_env()
    base = client.images.get(backend_image("docker")).id
    dockerfile = f"FROM {base}\nUSER 0\nRUN echo from-the-case > /case-marker\nUSER 65534\n"
    image, _ = client.images.build(fileobj=io.BytesIO(dockerfile.encode()), tag="nightshift-test/case-image:marker",
                                   rm=True, labels={"org.nightshift.test": "case-image"})
    return image.id


@pytest.mark.parametrize("backend_name", ["bubblewrap", "docker"])
def test_install_is_built_on_the_case_image(backend_name, case_image, tmp_path: Path, builtin_cases) -> None:
    backend = make_backend(backend_name)
    case = builtin_cases[0].model_copy(update={"image": case_image})
    pins = pin_harnesses(Experiment(name="x", variants=[VARIANT]), {"cli": resolve_harness(VARIANT.harness)}, backend,
                         [case])
    derived = pins.case_images["cli"][case_image]
    assert derived.startswith("sha256:") and derived != case_image
    assert pins.identities["cli"]["case_images"] == {case_image: derived}  # pinned: part of the trial id

    def agent_output(case_images: dict) -> tuple[str, str]:
        ctx = TrialContext(run_dir=tmp_path, backend=backend, limits=LIMITS, grader=CaseGrader(),
                           gateway=ModelGateway.from_settings("http://127.0.0.1:9/v1", SECRET, ModelEndpoint()),
                           variant_backends=pins.backends, variant_case_images=case_images)
        spec = TrialSpec(trial_id=f"ci{time.monotonic_ns()}", run_id="r", case=case, seed=1, model_version="s",
                         variant=VARIANT)
        row = execute_trial(spec, ctx)
        events = [json.loads(line) for line in (tmp_path / "trajectories" / f"{spec.trial_id}.jsonl").read_text()
                  .splitlines()]
        end = next(e for e in events if e["event"] == "command_end")
        return row.status.value, end["stdout"] + end["stderr"]

    status, output = agent_output(pins.case_images)
    assert output.startswith("from-the-case\ninstalled\n"), (status, output)
    status, output = agent_output({})  # the case image alone: what trials ran before, without the install
    assert status == "agent_error" and "/opt/agent/marker: No such file" in output
