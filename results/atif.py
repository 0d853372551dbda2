"""A run's trajectories in Harbor's Agent Trajectory Interchange Format (ATIF v1.4, RFC 0001 of the Harbor
project), one trajectory object per trial; ``nightshift export RUN --format atif`` (cli/export.py).

The mapping, from nightshift's trajectory events (nightshift/trajectory.py): the ``start`` prompt becomes
``system``/``user`` steps; each ``model`` event one ``agent`` step with its message, its ``tool_calls``
(arguments as a JSON object), its ``usage`` as ``metrics`` and the outputs of its calls (``tool`` events with the
same call id) as its ``observation``; a ``tool`` event no model event announced becomes an agent step of its
own. Notes, the submit, limits and errors, which ATIF has no step kind for, go in the step's or the root's
``extra``; so do the row's outcome, scores and flags. Timestamps are the row's start plus each event's ``t``.

A trial of a protected split (heldout, commercial; docs/SPLITS.md) is exported as its ids and outcome only:
its trajectory is never read, a sealed one never decrypted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import nightshift
from nightshift.experiment.manifest import RunManifest
from nightshift.models import TrialResult
from nightshift.scanners import read_events
from nightshift.tasks.artifacts import trajectory_path
from nightshift.tasks.row_check import load_row

SCHEMA_VERSION = "ATIF-v1.4"
PROTECTED = ("heldout", "commercial")


def run_rows(run_dir: Path) -> list[TrialResult]:
    """The run's rows, in trial-id order (a corrupt row raises, naming its file)."""
    rows = [load_row(p) for p in sorted((run_dir / "results").glob("*.json"))]
    return [r for r in rows if r is not None]


def _stamp(row: TrialResult, t: object) -> str | None:
    if not row.started_at or not isinstance(t, int | float):
        return None
    when = datetime.fromisoformat(row.started_at) + timedelta(seconds=float(t))
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _arguments(raw: object) -> dict[str, Any]:
    """ATIF wants an object: a JSON string is parsed; anything else is kept under ``raw``."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return {"raw": raw}
        return parsed if isinstance(parsed, dict) else {"raw": parsed}
    return {} if raw is None else {"raw": raw}


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _outcome(row: TrialResult) -> dict[str, Any]:
    return {"trial_id": row.trial_id, "run_id": row.run_id, "case_id": row.case_id, "suite": row.suite,
            "split": row.split, "variant": row.variant, "seed": row.seed, "status": row.status.value,
            "score": row.score}


def _agent(row: TrialResult, manifest: RunManifest | None, harness: str) -> dict[str, Any]:
    identity = (manifest.harnesses.get(row.variant) if manifest else None) or {}
    version = str(identity.get("version") or f"nightshift {nightshift.__version__}")
    return {"name": str(identity.get("name") or harness or "nightshift-agent"), "version": version,
            "model_name": row.model_version or row.model, "extra": {"variant": row.variant, **identity}}


def redacted(row: TrialResult, manifest: RunManifest | None) -> dict[str, Any]:
    """A protected trial: ids and outcome, no step, no text of the case."""
    agent = _agent(row, manifest, "")
    agent["extra"] = {"variant": row.variant}
    return {"schema_version": SCHEMA_VERSION, "session_id": row.trial_id, "agent": agent, "steps": [],
            "notes": f"redacted: a trial of the protected split {row.split!r}; its trajectory is not exported",
            "extra": _outcome(row)}


def trajectory(row: TrialResult, events: list[dict[str, Any]], manifest: RunManifest | None = None) -> dict[str, Any]:
    """One trial as an ATIF trajectory."""
    steps: list[dict[str, Any]] = []
    by_call: dict[str, dict[str, Any]] = {}  # tool_call_id -> the agent step that announced it
    extra: dict[str, Any] = {**_outcome(row), "flags": [f.model_dump(exclude_defaults=True) for f in row.flags]}
    harness = ""

    def add(step: dict[str, Any]) -> dict[str, Any]:
        step = {"step_id": len(steps) + 1, **{k: v for k, v in step.items() if v is not None}}
        steps.append(step)
        return step

    for event in events:
        kind = event.get("event")
        if kind == "trial":
            harness = str(event.get("harness") or "")
        elif kind == "start":
            for message in event.get("messages") or []:
                role = message.get("role") if isinstance(message, dict) else None
                if role in ("system", "user"):
                    add({"source": role, "message": _text(message.get("content")),
                         "timestamp": _stamp(row, event.get("t"))})
        elif kind == "model" and isinstance(event.get("message"), dict):
            message, usage = event["message"], event.get("usage") or {}
            calls = [c for c in message.get("tool_calls") or [] if isinstance(c, dict)
                     and isinstance(c.get("function"), dict)]
            step = add({"source": "agent", "message": _text(message.get("content")),
                        "timestamp": _stamp(row, event.get("t")), "model_name": event.get("served_by"),
                        "tool_calls": [{"tool_call_id": str(c.get("id", "")), "function_name":
                                        str(c["function"].get("name", "")),
                                        "arguments": _arguments(c["function"].get("arguments"))}
                                       for c in calls] or None,
                        "metrics": {"prompt_tokens": int(usage.get("input_tokens") or 0),
                                    "completion_tokens": int(usage.get("output_tokens") or 0)} if usage else None,
                        "extra": {"nightshift_step": event.get("step")}})
            by_call.update({str(c.get("id", "")): step for c in calls})
        elif kind == "tool" and isinstance(event.get("call"), dict):
            call = event["call"]
            call_id = str(call.get("id", ""))
            owner = by_call.get(call_id)
            if owner is None:  # a harness that logs its tool calls only: the call is a step of its own
                function = call.get("function") if isinstance(call.get("function"), dict) else {}
                owner = add({"source": "agent", "message": "", "timestamp": _stamp(row, event.get("t")),
                             "tool_calls": [{"tool_call_id": call_id, "function_name": str(function.get("name", "")),
                                             "arguments": _arguments(function.get("arguments"))}],
                             "extra": {"nightshift_step": event.get("step")}})
                by_call[call_id] = owner
            owner.setdefault("observation", {"results": []})["results"].append(
                {"source_call_id": call_id, "content": str(event.get("output", ""))})
        elif kind == "note" and steps:
            steps[-1].setdefault("extra", {}).setdefault("notes", []).append(str(event.get("text", "")))
        elif kind in ("submit", "agent_error", "infra_error", "step_limit", "timeout", "token_limit", "cost_limit",
                      "command_end"):
            extra.setdefault("ending", []).append({k: v for k, v in event.items() if k != "t"})
    return {"schema_version": SCHEMA_VERSION, "session_id": row.trial_id, "agent": _agent(row, manifest, harness),
            "steps": steps, "final_metrics": {"total_prompt_tokens": row.input_tokens,
                                              "total_completion_tokens": row.output_tokens,
                                              "total_cost_usd": row.cost_usd, "total_steps": len(steps),
                                              "extra": {"model_calls": row.model_calls, "agent_steps": row.steps}},
            "extra": extra}


def export_run(run_dir: Path) -> Iterator[dict[str, Any]]:
    """Every trial of the run as an ATIF trajectory, protected ones redacted."""
    manifest_file = run_dir / "manifest.json"
    manifest = RunManifest.read(manifest_file) if manifest_file.is_file() else None
    for row in run_rows(run_dir):
        if row.split in PROTECTED:
            yield redacted(row, manifest)
        else:
            yield trajectory(row, read_events(trajectory_path(run_dir, row.trial_id)), manifest)
