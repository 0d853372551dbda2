"""Checks a Kubernetes work-pool base job template without a cluster or a Prefect server.

Renders the template as prefect-kubernetes' worker does (variable defaults and job variables through
Prefect's own templating, the worker's job configuration model, its per-flow-run preparation), then walks
the rendered Job manifest against the Kubernetes API types strictly: every key must be a field of the
model at its place, every value of the field's type, every required field present. The API client's own
deserializer is not enough: it silently drops unknown keys, and the API server drops them with a mere
warning, so a misplaced field (``parallelism`` in the PodSpec) would simply have no effect.

    python -m nightshift.deployments.templates_check deployments/templates/kubernetes.json

Needs prefect-kubernetes (the ``dev`` extra), whose ``kubernetes_asyncio`` client carries the generated
models of the Kubernetes OpenAPI types. Only checks; never creates anything.
"""

from __future__ import annotations

import asyncio
import copy
import difflib
import json
import re
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefect.client.schemas.objects import FlowRun

try:  # the dev extra's: this module is a check run by CI and by hand, never by a night
    from kubernetes_asyncio import client
    from prefect_kubernetes.worker import KubernetesWorkerJobConfiguration
except ImportError as exc:
    raise SystemExit("the template check needs prefect-kubernetes: pip install 'nightshift[dev]'") from exc

_PRIMITIVES: dict[str, tuple[type, ...]] = {
    "str": (str,), "int": (int,), "float": (int, float), "bool": (bool,), "datetime": (str,), "date": (str,),
}
_REQUIRED = re.compile(r"Invalid value for `(\w+)`, must not be `None`")
_KINDS: dict[tuple[object, object], str] = {("batch/v1", "Job"): "V1Job"}  # what the Kubernetes worker creates


@dataclass(frozen=True)
class Problem:
    """One thing a Kubernetes worker or API server would not accept, where it is and how to fix it."""

    path: str
    message: str
    fix: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}; {self.fix}"


class _NoServer:
    """Stands in for the Prefect client: this check runs offline, so a template that needs one is reported."""

    def __getattr__(self, name: str) -> Any:
        raise LookupError("the template refers to Prefect blocks or variables ({{ prefect.* }}), "
                          "which only a server resolves; check it with plain values")


def _client() -> Any:
    return client


def sample_values(variables: dict[str, Any]) -> dict[str, Any]:
    """A value of the declared type for every variable without a default, so every placeholder is exercised."""
    samples: dict[str, Any] = {"name": "shard-1-of-4", "image": "registry.example/nightshift@sha256:" + "0" * 64,
                               "command": "prefect flow-run execute"}
    by_type = {"integer": 3600, "number": 1.5, "boolean": True, "string": "example"}
    values: dict[str, Any] = {}
    for name, schema in variables.get("properties", {}).items():
        if "default" in schema:
            continue
        if name in samples:
            values[name] = samples[name]
        elif "enum" in schema:
            values[name] = schema["enum"][0]
        elif schema.get("type") == "object" and "additionalProperties" in schema:
            values[name] = {"nightshift.example/key": "value"}
        elif schema.get("type") in by_type:
            values[name] = by_type[schema["type"]]
        # anything else (a block such as cluster_config) is left to its default: it does not reach the manifest
    return values


def render(template: dict[str, Any], values: dict[str, Any] | None = None, flow_run_name: str = "shard-1-of-4") -> Any:
    """The worker's job configuration for one flow run: defaults, then ``values`` (job variables), prepared."""

    configuration = asyncio.run(KubernetesWorkerJobConfiguration.from_template_and_values(
        copy.deepcopy(template), values or {}, client=_NoServer()))
    configuration.prepare_for_flow_run(FlowRun(flow_id=uuid.uuid4(), name=flow_run_name))
    return configuration


def check_manifest(manifest: dict[str, Any]) -> tuple[Any, list[Problem]]:
    """The manifest as a ``V1Job`` (unknown keys left out) and every problem the strict walk found."""
    problems: list[Problem] = []
    model = _KINDS.get((manifest.get("apiVersion"), manifest.get("kind")))
    if model is None:
        problems.append(Problem("apiVersion/kind", f"{manifest.get('apiVersion')}/{manifest.get('kind')} is not "
                                "what the Kubernetes worker creates", "use apiVersion batch/v1, kind Job"))
        return None, problems
    return _walk(manifest, model, "", [], problems), problems


def _walk(value: Any, kind: str, path: str, ancestors: list[tuple[str, str]], problems: list[Problem]) -> Any:
    """Check ``value`` against the type named ``kind`` (as the models' ``openapi_types`` name them); build it."""
    if value is None:  # unset: the model's required check below reports it where it matters
        return None
    if kind.startswith("list["):
        if not isinstance(value, list):
            return _wrong(value, "list", path, problems)
        return [_walk(item, kind[5:-1], f"{path}[{i}]", ancestors, problems) for i, item in enumerate(value)]
    if kind.startswith("dict("):
        if not isinstance(value, dict):
            return _wrong(value, "dict", path, problems)
        inner = kind[5:-1].split(", ", 1)[1]
        return {k: _walk(v, inner, f"{path}.{k}", ancestors, problems) for k, v in value.items()}
    if kind == "object":  # IntOrString, RawExtension: any JSON value
        return value
    if kind in _PRIMITIVES:
        ok = isinstance(value, _PRIMITIVES[kind]) and (kind == "bool" or not isinstance(value, bool))
        return value if ok else _wrong(value, kind, path, problems)
    if not isinstance(value, dict):
        return _wrong(value, f"an object ({kind})", path, problems)
    return _walk_model(value, kind, path, ancestors, problems)


def _walk_model(value: dict, kind: str, path: str, ancestors: list[tuple[str, str]], problems: list[Problem]) -> Any:
    client = _client()
    model = getattr(client, kind)
    by_key = {key: attr for attr, key in model.attribute_map.items()}
    kwargs: dict[str, Any] = {}
    for key, item in value.items():
        here = f"{path}.{key}" if path else key
        if key not in by_key:
            problems.append(Problem(here, f"not a field of {kind}", _unknown_key_fix(key, kind, ancestors)))
            continue
        attr = by_key[key]
        kwargs[attr] = _walk(item, model.openapi_types[attr], here, [*ancestors, (path, kind)], problems)
    # the models refuse a required field left None: that is the API's own list of required fields
    configuration = client.Configuration()
    while True:
        try:
            return model(**kwargs, local_vars_configuration=configuration)
        except ValueError as exc:
            missing = _REQUIRED.match(str(exc))
            if not missing:
                problems.append(Problem(path or kind, str(exc), f"correct it (see {kind} in the Kubernetes API)"))
                return None
            attr = missing.group(1)
            key = model.attribute_map[attr]
            problems.append(Problem(f"{path}.{key}" if path else key, f"required field of {kind} is missing",
                                    f"set {key}"))
            kwargs[attr] = _placeholder(model.openapi_types[attr])


def _unknown_key_fix(key: str, kind: str, ancestors: list[tuple[str, str]]) -> str:
    for path, ancestor in reversed(ancestors):  # a field misplaced one or more levels down
        if key in getattr(_client(), ancestor).attribute_map.values():
            return f"it is a field of {ancestor}: move it to {path + '.' if path else ''}{key}"
    close = difflib.get_close_matches(key, getattr(_client(), kind).attribute_map.values(), n=1)
    return f"did you mean {close[0]}?" if close else f"remove it (see {kind} in the Kubernetes API reference)"


def _wrong(value: Any, expected: str, path: str, problems: list[Problem]) -> None:
    got = type(value).__name__
    fix = f"write {value} without quotes" if isinstance(value, str) and expected in ("int", "float", "bool") \
        else f"give it a {expected}"
    problems.append(Problem(path, f"expected {expected}, got {got} {json.dumps(value)[:60]}", fix))
    return None


def _placeholder(kind: str) -> Any:
    return [] if kind.startswith("list[") else {} if kind.startswith("dict(") else "missing"


def template_problems(template: dict[str, Any], values: dict[str, Any] | None = None) -> list[Problem]:
    """Everything a Kubernetes worker and API server would not accept in the template rendered with ``values``."""

    fields = KubernetesWorkerJobConfiguration.model_fields
    problems = [Problem(f"job_configuration.{key}", "not a field of KubernetesWorkerJobConfiguration "
                        "(the worker ignores it)", f"remove it; fields: {', '.join(sorted(fields))}")
                for key in template.get("job_configuration", {}) if key not in fields]
    try:
        configuration = render(template, values)
    except Exception as exc:  # pydantic's ValidationError or the templating's: the worker would fail the flow run
        return [*problems, Problem("job_configuration", f"the Kubernetes worker rejects it: {exc}",
                                   "correct the job configuration or its variables")]
    return [*problems, *check_manifest(configuration.job_manifest)[1]]


def check_file(path: Path) -> list[Problem]:
    """The template rendered twice: with its defaults only, and with every variable given a value."""
    template = json.loads(path.read_text())
    problems: list[Problem] = []
    for values in ({}, sample_values(template.get("variables", {}))):
        problems += [p for p in template_problems(template, values) if p not in problems]
    return problems


def main(argv: list[str] | None = None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m nightshift.deployments.templates_check TEMPLATE.json ...", file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        problems = check_file(path)
        failed |= bool(problems)
        print(f"{path}: OK" if not problems else "\n".join(f"{path}: {p}" for p in problems))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
