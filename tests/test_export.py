"""`nightshift export RUN --format atif|otel`: a small real run (the reference loop against the simulator) written
as ATIF v1.4 trajectories that validate against the schema derived from Harbor's RFC, and as OTLP/JSON GenAI spans
that OpenTelemetry's own protobuf definitions parse; the steps and calls as the trajectory has them; a
protected-split trial exported as ids only, its trajectory never read."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import jsonschema
import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from nightshift.cli import main
from nightshift.contracts import SandboxLimits
from nightshift.experiment.config import HarnessSpec, ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.results.atif import SCHEMA_VERSION
from nightshift.scanners import read_events
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.tasks.artifacts import trajectory_path
from nightshift.tasks.results import result_path, write_result
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN, REPO
from tests.test_gateway_accounting import NoTests, StubBackend

SCHEMA = json.loads((REPO / "results" / "atif-v1.4.schema.json").read_text())


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, builtin_cases) -> Path:
    """Two public trials of the simulator's agent (stub sandbox: the commands print nothing), then a copy of one
    as a held-out trial with a marker in its plaintext trajectory, which the export must not read."""
    run_dir = tmp_path_factory.mktemp("export") / "run"
    public = [c for c in builtin_cases if c.split == "public"][:2]
    with running_simulator(SimulatorConfig(latency_ms=1), [BUILTIN]) as url:
        ctx = TrialContext(run_dir=run_dir, backend=StubBackend(), gateway=ModelGateway.from_settings(
            url, "sk-t", ModelEndpoint()), limits=SandboxLimits(), grader=NoTests())
        variant = Variant(name="v", model="sim-strong", harness=HarnessSpec(settings={"max_steps": 4}))
        for case in public:
            spec = TrialSpec(trial_id=f"t-{case.id}", run_id="export", case=case, seed=1, model_version="sim-x",
                             variant=variant)
            write_result(run_dir, execute_trial(spec, ctx))
    row = json.loads(result_path(run_dir, f"t-{public[0].id}").read_text())
    secret = {**row, "trial_id": "t-heldout", "split": "heldout", "case_id": "py-secret"}
    result_path(run_dir, "t-heldout").write_text(json.dumps(secret))
    trajectory_path(run_dir, "t-heldout").write_text(json.dumps({"event": "trial", "instruction": "SECRET-TASK"}))
    return run_dir


def test_a_run_exports_as_atif_that_validates_and_keeps_every_step_and_call(run: Path) -> None:
    out = run / "out.jsonl"
    assert main(["export", str(run), "--format", "atif", "--out", str(out)]) == 0
    documents = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(documents) == 3
    validator = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    for document in documents:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
        assert not errors, errors
    for document in (d for d in documents if d["session_id"] != "t-heldout"):
        assert document["schema_version"] == SCHEMA_VERSION
        events = read_events(trajectory_path(run, document["session_id"]))
        models = [e for e in events if e.get("event") == "model"]
        agent = [s for s in document["steps"] if s["source"] == "agent"]
        assert len(agent) == len(models) > 0
        assert [s["step_id"] for s in document["steps"]] == list(range(1, len(document["steps"]) + 1))
        assert document["steps"][0]["source"] in ("system", "user")  # the prompt comes first
        row = json.loads(result_path(run, document["session_id"]).read_text())
        assert document["final_metrics"]["total_prompt_tokens"] == row["input_tokens"] > 0
        assert sum(s.get("metrics", {}).get("completion_tokens", 0) for s in agent) == row["output_tokens"]
        outputs = {e["call"]["id"] for e in events if e.get("event") == "tool"}
        for step, model in zip(agent, models, strict=True):
            calls = [c["id"] for c in model["message"].get("tool_calls") or []]
            assert [c["tool_call_id"] for c in step.get("tool_calls", [])] == calls
            results = [r["source_call_id"] for r in step.get("observation", {}).get("results", [])]
            assert results == [c for c in calls if c in outputs]  # each output under the call that made it
        bash = [c for s in agent for c in s.get("tool_calls", []) if c["function_name"] == "bash"]
        assert bash and all(isinstance(c["arguments"].get("command"), str) for c in bash)
        assert document["extra"]["status"] == row["status"]


def test_a_protected_trial_is_exported_as_its_ids_only(run: Path, capsys) -> None:
    assert main(["export", str(run), "--out", "-"]) == 0
    text = capsys.readouterr().out
    assert "SECRET-TASK" not in text
    [held] = [json.loads(line) for line in text.splitlines() if '"t-heldout"' in line]
    assert held["steps"] == [] and "redacted" in held["notes"]
    assert held["extra"]["split"] == "heldout" and held["extra"]["case_id"] == "py-secret"
    assert set(held["agent"]["extra"]) == {"variant"}
    assert "final_metrics" not in held  # no token counts: even they say something about the case


def test_export_of_a_folder_that_is_no_run_says_so(tmp_path: Path, capsys) -> None:
    assert main(["export", str(tmp_path)]) != 0
    captured = capsys.readouterr()
    assert "not a run folder" in captured.out + captured.err


def _as_proto_json(request: dict) -> dict:
    """OTLP/JSON writes ids as hex; protobuf's JSON mapping wants bytes as base64 (what a collector converts)."""
    for resource in request["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return request


def test_a_run_exports_as_otlp_genai_spans_that_opentelemetrys_protos_parse(run: Path) -> None:
    out = run / "spans.json"
    assert main(["export", str(run), "--format", "otel", "--out", str(out)]) == 0
    text = out.read_text()
    assert "SECRET-TASK" not in text
    # OpenTelemetry's own message definitions, strictly: an unknown field or a wrong type is a ParseError
    parsed = json_format.ParseDict(_as_proto_json(json.loads(text)), ExportTraceServiceRequest())
    spans = parsed.resource_spans[0].scope_spans[0].spans
    by_trace: dict[bytes, list] = {}
    for span in spans:
        by_trace.setdefault(span.trace_id, []).append(span)
    assert len(by_trace) == 3  # one trace per trial
    for trial_spans in by_trace.values():
        attrs = [{a.key: a.value for a in s.attributes} for s in trial_spans]
        [root] = [s for s in trial_spans if not s.parent_span_id]
        trial_id = {a.key: a.value for a in root.attributes}["nightshift.trial.id"].string_value
        assert root.name == "invoke_agent v" and all(s.parent_span_id == root.span_id for s in trial_spans
                                                     if s is not root)
        assert all(s.end_time_unix_nano >= s.start_time_unix_nano > 0 for s in trial_spans)
        if trial_id == "t-heldout":
            assert len(trial_spans) == 1 and attrs[0]["nightshift.redacted"].bool_value
            assert "gen_ai.usage.input_tokens" not in attrs[0]
            continue
        events = read_events(trajectory_path(run, trial_id))
        chats = [s for s in trial_spans if s.name.startswith("chat ")]
        tools = [s for s in trial_spans if s.name.startswith("execute_tool ")]
        assert len(chats) == sum(1 for e in events if e.get("event") == "model") > 0
        assert len(tools) == sum(1 for e in events if e.get("event") == "tool") > 0
        row = json.loads(result_path(run, trial_id).read_text())
        used = sum({a.key: a.value for a in s.attributes}["gen_ai.usage.input_tokens"].int_value for s in chats)
        assert used == row["input_tokens"]
        tool = {a.key: a.value for a in tools[0].attributes}
        assert tool["gen_ai.operation.name"].string_value == "execute_tool"
        assert tool["gen_ai.tool.name"].string_value == "bash" and tool["gen_ai.tool.call.id"].string_value
