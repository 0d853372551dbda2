"""A run's trajectories as OpenTelemetry spans in OTLP/JSON, named and attributed by the GenAI semantic
conventions (v1.41.0, Development status); ``nightshift export RUN --format otel`` (cli/export.py).

One trace per trial: an ``invoke_agent`` span over the agent phase (its row's outcome as ``nightshift.*``
attributes), under it one ``chat`` span per model call (requested and served model, token usage, the output
message) and one ``execute_tool`` span per tool call (tool name, call id, arguments, result). Ids are derived
from the trial id, so exporting twice gives the same file. OTLP/JSON writes trace and span ids as hex and
64-bit integers as strings (the OTLP specification's JSON encoding). A protected-split trial is one span with
its ids and outcome only: its trajectory is never read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import nightshift
from nightshift.experiment.manifest import RunManifest
from nightshift.models import TrialResult
from nightshift.results.atif import PROTECTED, run_rows
from nightshift.scanners import read_events
from nightshift.tasks.artifacts import trajectory_path

SEMCONV = "https://opentelemetry.io/schemas/1.41.0"
SPAN_KIND_INTERNAL, SPAN_KIND_CLIENT = 1, 3
STATUS_OK, STATUS_ERROR = 1, 2
PROVIDERS = {"chat": "openai", "responses": "openai", "anthropic": "anthropic"}  # the endpoint's wire protocol


def _id(size: int, *parts: object) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:size * 2]


def _value(value: object) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [_value(v) for v in value]}}
    return {"stringValue": value if isinstance(value, str) else json.dumps(value, sort_keys=True)}


def _attributes(values: Mapping[str, object]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in values.items() if v is not None and v != ""]


def _nanos(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp() * 1e9) if iso else 0


def _span(trace: str, span: str, parent: str, name: str, kind: int, start: int, end: int,
          attributes: dict[str, object], error: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"traceId": trace, "spanId": span, "name": name, "kind": kind,
                           "startTimeUnixNano": str(start), "endTimeUnixNano": str(max(start, end)),
                           "attributes": _attributes(attributes),
                           "status": {"code": STATUS_ERROR, "message": error} if error else {"code": STATUS_OK}}
    if parent:
        out["parentSpanId"] = parent
    return out


def _outcome(row: TrialResult) -> dict[str, object]:
    return {"nightshift.trial.id": row.trial_id, "nightshift.run.id": row.run_id, "nightshift.case.id": row.case_id,
            "nightshift.split": row.split, "nightshift.variant": row.variant, "nightshift.seed": row.seed,
            "nightshift.status": row.status.value, "nightshift.score": row.score}


def _error(row: TrialResult) -> str:
    return "" if row.status.value in ("resolved", "failed") else f"{row.status.value}: {row.reason}"[:300]


def trial_spans(row: TrialResult, events: list[dict[str, Any]] | None, provider: str) -> list[dict[str, Any]]:
    """The trial's spans; ``events`` None: a protected trial, one span of ids and outcome."""
    trace, root = _id(16, "trace", row.trial_id), _id(8, "span", row.trial_id, "agent")
    start, end = _nanos(row.started_at), _nanos(row.finished_at)
    agent = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": row.variant,
             "gen_ai.conversation.id": row.trial_id, **_outcome(row)}
    if events is None:
        return [_span(trace, root, "", f"invoke_agent {row.variant}", SPAN_KIND_INTERNAL, start, end,
                      {**agent, "nightshift.redacted": True}, _error(row).split(":")[0])]
    agent.update({"gen_ai.provider.name": provider, "gen_ai.request.model": row.model,
                  "gen_ai.response.model": row.model_version, "gen_ai.usage.input_tokens": row.input_tokens,
                  "gen_ai.usage.output_tokens": row.output_tokens, "nightshift.cost_usd": row.cost_usd})
    spans = [_span(trace, root, "", f"invoke_agent {row.variant}", SPAN_KIND_INTERNAL, start, end, agent,
                   _error(row))]
    names: dict[str, str] = {}  # call id -> tool name, from the model message that made the call
    for index, event in enumerate(events):
        seconds = event.get("seconds") if isinstance(event.get("seconds"), int | float) else 0.0
        t = event.get("t")
        if not isinstance(t, int | float):
            continue
        finished = start + int(t * 1e9)
        began = finished - int(float(seconds or 0.0) * 1e9)
        if event.get("event") == "model" and isinstance(event.get("message"), dict):
            message, usage = event["message"], event.get("usage") or {}
            for call in message.get("tool_calls") or []:
                if isinstance(call, dict) and isinstance(call.get("function"), dict):
                    names[str(call.get("id"))] = str(call["function"].get("name", ""))
            spans.append(_span(trace, _id(8, "span", row.trial_id, index), root, f"chat {row.model}",
                               SPAN_KIND_CLIENT, began, finished, {
                                   "gen_ai.operation.name": "chat", "gen_ai.provider.name": provider,
                                   "gen_ai.request.model": row.model, "gen_ai.response.model": event.get("served_by"),
                                   "gen_ai.usage.input_tokens": usage.get("input_tokens"),
                                   "gen_ai.usage.output_tokens": usage.get("output_tokens"),
                                   "gen_ai.output.messages": json.dumps([message]),
                                   "nightshift.step": event.get("step")}))
        elif event.get("event") == "tool" and isinstance(event.get("call"), dict):
            call = event["call"]
            function = call.get("function") if isinstance(call.get("function"), dict) else {}
            name = str(function.get("name") or names.get(str(call.get("id")), ""))
            spans.append(_span(trace, _id(8, "span", row.trial_id, index), root, f"execute_tool {name}",
                               SPAN_KIND_INTERNAL, began, finished, {
                                   "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
                                   "gen_ai.tool.type": "function", "gen_ai.tool.call.id": str(call.get("id", "")),
                                   "gen_ai.tool.call.arguments": function.get("arguments"),
                                   "gen_ai.tool.call.result": str(event.get("output", "")),
                                   "nightshift.step": event.get("step")}))
    return spans


def export_run(run_dir: Path) -> dict[str, Any]:
    """The whole run as one OTLP/JSON ``ExportTraceServiceRequest``."""
    manifest_file = run_dir / "manifest.json"
    manifest = RunManifest.read(manifest_file) if manifest_file.is_file() else None
    provider = PROVIDERS.get(manifest.endpoint_protocol if manifest else "chat", "openai")
    spans = []
    for row in run_rows(run_dir):
        events = None if row.split in PROTECTED else read_events(trajectory_path(run_dir, row.trial_id))
        spans += trial_spans(row, events, provider)
    resource = {"service.name": "nightshift", "service.version": nightshift.__version__,
                "nightshift.run": run_dir.name, "nightshift.experiment": manifest.experiment if manifest else None}
    scope = {"scope": {"name": "nightshift.export", "version": nightshift.__version__}, "schemaUrl": SEMCONV,
             "spans": spans}
    return {"resourceSpans": [{"resource": {"attributes": _attributes(resource)}, "schemaUrl": SEMCONV,
                               "scopeSpans": [scope]}]}
