"""The Kubernetes job template, checked as the worker renders it and as the Kubernetes API types define it.

No cluster and no Prefect server: nightshift.deployments.templates_check renders the template with
prefect-kubernetes' own job configuration and walks the Job manifest against the API client's models.
"""

from __future__ import annotations

import copy
import json
import shlex
from typing import Any

import pytest
from prefect_kubernetes.worker import KubernetesWorkerJobConfiguration

from nightshift.deployments import templates_check
from nightshift.deployments.templates_check import check_file, check_manifest, render, template_problems
from tests.conftest import REPO

TEMPLATE = REPO / "deployments" / "templates" / "kubernetes.json"
JOB_VARIABLES = {  # what a deployment of the shard flow passes
    "name": "nightly-shard-2-of-8",
    "image": "registry.example/nightshift@sha256:" + "ab" * 32,
    "command": "prefect flow-run execute",
    "env": {"NIGHTSHIFT_LOG_LEVEL": "info", "PREFECT_API_URL": "http://prefect.nightshift:4200/api"},
    "finished_job_ttl": 3600,
    "service_account_name": "nightshift-shard",
}


def _template() -> dict[str, Any]:
    return json.loads(TEMPLATE.read_text())


def _manifest(template: dict[str, Any]) -> dict[str, Any]:
    return template["job_configuration"]["job_manifest"]


def _pod_spec(template: dict[str, Any]) -> dict[str, Any]:
    return _manifest(template)["spec"]["template"]["spec"]


def test_the_shipped_template_passes_the_check() -> None:
    assert check_file(TEMPLATE) == []  # with its defaults only, and with every variable given a value


def test_the_worker_renders_the_template_as_the_docs_describe() -> None:
    template = _template()
    assert set(template["job_configuration"]) <= set(KubernetesWorkerJobConfiguration.model_fields)
    configuration = render(template, JOB_VARIABLES)
    job, problems = check_manifest(configuration.job_manifest)
    assert problems == []
    assert job.metadata.namespace == "nightshift" and job.metadata.generate_name == "nightly-shard-2-of-8-"
    assert (job.spec.parallelism, job.spec.completions, job.spec.backoff_limit) == (1, 1, 0)
    assert job.spec.ttl_seconds_after_finished == 3600
    pod = job.spec.template.spec
    assert pod.restart_policy == "Never" and pod.service_account_name == "nightshift-shard"
    (container,) = pod.containers
    assert container.image == JOB_VARIABLES["image"]
    assert container.args == shlex.split(JOB_VARIABLES["command"])
    env = {e.name: e.value for e in container.env}
    assert env["NIGHTSHIFT_LOG_LEVEL"] == "info" and env["DO_NOT_TRACK"] == "1"  # job variables over the defaults
    assert "NIGHTSHIFT_API_KEY" not in env and container.env_from[0].secret_ref.name == "nightshift-model-key"
    assert container.security_context.privileged is True  # bubblewrap inside the pod
    assert container.resources.requests == {"cpu": "4", "memory": "16Gi"}
    assert container.resources.limits == {"cpu": "8", "memory": "24Gi"}
    (mount,) = container.volume_mounts
    (volume,) = pod.volumes
    assert mount.mount_path == "/srv/nightshift/runs" and mount.name == volume.name
    assert volume.persistent_volume_claim.claim_name == "nightshift-runs"


def test_parallelism_and_completions_stay_in_the_job_spec() -> None:
    """prefect-kubernetes' manifest check wants them (it expects them in the PodSpec, where Kubernetes drops
    them); it accepts them in the Job spec, where they take effect. Removed altogether, every flow run fails."""
    template = _template()
    for key in ("parallelism", "completions"):
        del _manifest(template)["spec"][key]
    (problem,) = template_problems(template)
    assert problem.path == "job_configuration" and "/spec/template/spec/parallelism" in problem.message


def _inject(change) -> list[str]:
    template = copy.deepcopy(_template())
    change(template)
    return [str(p) for p in template_problems(template, JOB_VARIABLES)]


MISTAKES = [
    (lambda t: _pod_spec(t).update(parallelism=1),  # the mistake this check was written for
     "spec.template.spec.parallelism: not a field of V1PodSpec; it is a field of V1JobSpec: move it to "
     "spec.parallelism"),
    (lambda t: _pod_spec(t).update(restartPolicyy="Never"),
     "spec.template.spec.restartPolicyy: not a field of V1PodSpec; did you mean restartPolicy?"),
    (lambda t: _manifest(t)["spec"].update(backoffLimit="0"),
     'spec.backoffLimit: expected int, got str "0"; write 0 without quotes'),
    (lambda t: _pod_spec(t)["containers"][0]["securityContext"].update(privileged="true"),
     'spec.template.spec.containers[0].securityContext.privileged: expected bool, got str "true"'),
    (lambda t: _pod_spec(t)["containers"][0]["volumeMounts"][0].pop("mountPath"),
     "spec.template.spec.containers[0].volumeMounts[0].mountPath: required field of V1VolumeMount is missing"),
    (lambda t: _pod_spec(t)["containers"][0].update(envFrom={"secretRef": {"name": "k"}}),
     "spec.template.spec.containers[0].envFrom: expected list, got dict"),
    (lambda t: t["job_configuration"].update(backoff_limit=3),
     "job_configuration.backoff_limit: not a field of KubernetesWorkerJobConfiguration"),
]


@pytest.mark.parametrize(("change", "expected"), MISTAKES, ids=[e.split(":")[0] for _, e in MISTAKES])
def test_an_injected_mistake_is_reported_with_its_path(change, expected: str) -> None:
    problems = _inject(change)
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_a_wrong_kind_is_reported() -> None:
    _, problems = check_manifest({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {}})
    assert [p.path for p in problems] == ["apiVersion/kind"]


def test_the_command_prints_ok_or_every_problem(tmp_path, capsys) -> None:
    assert templates_check.main([str(TEMPLATE)]) == 0
    assert capsys.readouterr().out.strip() == f"{TEMPLATE}: OK"
    bad = _template()
    _pod_spec(bad).update(parallelism=1, completions=1)
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert templates_check.main([str(tmp_path / "bad.json")]) == 1
    out = capsys.readouterr().out
    assert "spec.template.spec.parallelism: not a field of V1PodSpec" in out
    assert "spec.template.spec.completions: not a field of V1PodSpec" in out
