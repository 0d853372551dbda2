"""The model proxy speaks Chat Completions, OpenAI Responses and Anthropic Messages to an agent, driven here by
the official SDKs over real HTTP (the proxy's unix socket, the simulator behind the gateway): whatever the
protocol, a trial's limits, trajectory and accounting come out the same, and refusals, limits and endpoint
failures reach each SDK as its own error class."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import httpx2  # the transport of anthropic's SDK (its own fork of httpx)
import openai
import pytest

from nightshift.experiment.config import ModelEndpoint
from nightshift.gateway import ModelGateway
from nightshift.harnesses.limits import LimitGuard, TrialLimits
from nightshift.harnesses.proxy import ModelProxy
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulators
from nightshift.simulator.policy import Plan, decide
from nightshift.trajectory import TrajectoryLog
from tests.conftest import BUILTIN

MODEL, SEED, TOKEN = "sim-strong", 3, "nstrial-test-token"
SYSTEM = "You are a careful coding agent."
PRICES = {MODEL: {"input_per_mtok": 2.0, "output_per_mtok": 8.0}}
SCHEMAS = {"bash": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
           "submit": {"type": "object", "properties": {}}}


@pytest.fixture(scope="module")
def sims() -> Iterator[dict[str, str]]:
    specs = {"healthy": (SimulatorConfig(latency_ms=1), [BUILTIN], None),
             "tight": (SimulatorConfig(latency_ms=1, requests_per_minute=1), [BUILTIN], None),
             "overloaded": (SimulatorConfig(latency_ms=1, faults={"503": 1.0}), [BUILTIN], None),
             "hanging": (SimulatorConfig(latency_ms=1, faults={"timeout": 1.0}, hang_s=3), [BUILTIN], None)}
    with running_simulators(specs) as urls:
        yield urls


@pytest.fixture(scope="module")
def case(builtin_cases):
    return next(c for c in builtin_cases if decide(MODEL, c.id, SEED) is Plan.solve)


class Trial:
    """One trial's proxy in front of the simulator, as a command harness runs it (max_calls model calls)."""

    def __init__(self, url: str, folder: Path, max_calls: int, upstream: str = "chat", seed: int = SEED):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.gateway = ModelGateway.from_settings(url, "sk-night", ModelEndpoint(prices=PRICES, protocol=upstream))
        self.session = self.gateway.session()
        self.guard = LimitGuard(TrialLimits(max_calls=max_calls, wall_clock_s=120), self.session)
        self.log = TrajectoryLog(folder / "trajectory.jsonl")
        self.proxy = ModelProxy(folder / "model.sock", os.getuid(), self.session, self.guard, MODEL, seed, TOKEN,
                                self.log)

    def __enter__(self) -> Trial:
        self.log.__enter__()
        self.proxy.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.proxy.__exit__(*exc)
        self.log.__exit__(*exc)

    def openai(self, key: str = TOKEN) -> openai.OpenAI:
        http = httpx.Client(transport=httpx.HTTPTransport(uds=str(self.folder / "model.sock")))
        return openai.OpenAI(base_url="http://proxy/v1", api_key=key, http_client=http, max_retries=0)

    def anthropic(self, key: str = TOKEN) -> anthropic.Anthropic:
        http = httpx2.Client(transport=httpx2.HTTPTransport(uds=str(self.folder / "model.sock")))
        return anthropic.Anthropic(base_url="http://proxy", api_key=key, http_client=http, max_retries=0)

    def events(self, kind: str) -> list[dict[str, Any]]:
        lines = (self.folder / "trajectory.jsonl").read_text().splitlines()
        return [e for e in map(json.loads, lines) if e["event"] == kind]


def chat_agent(trial: Trial, instruction: str) -> Iterator[tuple[str, str, str]]:
    """A Chat Completions agent: yields each tool call (name, arguments, its id); the second call streams."""
    client = trial.openai()
    tools = [{"type": "function", "function": {"name": n, "description": f"the {n} tool", "parameters": s}}
             for n, s in SCHEMAS.items()]
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": instruction}]
    for step in range(10):
        request = {"model": MODEL, "messages": messages, "tools": tools, "max_tokens": 400, "temperature": 0}
        if step == 1:
            text, calls = "", {}
            for chunk in client.chat.completions.create(**request, stream=True):
                delta = chunk.choices[0].delta
                text += delta.content or ""
                for part in delta.tool_calls or []:
                    call = calls.setdefault(part.index, {"id": part.id, "name": "", "arguments": ""})
                    call["name"] += part.function.name or ""
                    call["arguments"] += part.function.arguments or ""
            call = calls[0]
        else:
            message = client.chat.completions.create(**request).choices[0].message
            text, first = message.content or "", message.tool_calls[0]
            call = {"id": first.id, "name": first.function.name, "arguments": first.function.arguments}
        function = {"name": call["name"], "arguments": call["arguments"]}
        messages.append({"role": "assistant", "content": text,
                         "tool_calls": [{"id": call["id"], "type": "function", "function": function}]})
        yield call["name"], call["arguments"], call["id"]
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": f"output {step}"})


def responses_agent(trial: Trial, instruction: str) -> Iterator[tuple[str, str, str]]:
    """An OpenAI Responses agent (as Codex CLI talks): the second call uses the SDK's stream helper, the third
    a raw stream=True; from the third on it continues with previous_response_id instead of the whole input."""
    client = trial.openai()
    tools = [{"type": "function", "name": n, "description": f"the {n} tool", "parameters": s, "strict": None}
             for n, s in SCHEMAS.items()]
    items: list[Any] = [{"role": "user", "content": instruction}]
    previous = None
    for step in range(10):
        request: dict[str, Any] = {"model": MODEL, "instructions": SYSTEM, "tools": tools, "max_output_tokens": 400,
                                   "temperature": 0}
        request.update({"previous_response_id": previous, "input": items[-1:]} if previous else {"input": items})
        if step == 1:
            with client.responses.stream(**request) as stream:
                deltas = [e for e in stream if e.type == "response.function_call_arguments.delta"]
                response = stream.get_final_response()
            assert deltas
        elif step == 2:
            events = list(client.responses.create(**request, stream=True))
            assert events[0].type == "response.created" and events[-1].type == "response.completed"
            assert [e.sequence_number for e in events] == list(range(len(events)))
            response = events[-1].response
        else:
            response = client.responses.create(**request)
        call = next(o for o in response.output if o.type == "function_call")
        items += [o.model_dump(exclude_none=True) for o in response.output]
        previous = response.id if step >= 1 else None
        yield call.name, call.arguments, call.call_id
        items.append({"type": "function_call_output", "call_id": call.call_id, "output": f"output {step}"})


def anthropic_agent(trial: Trial, instruction: str) -> Iterator[tuple[str, str, str]]:
    """An Anthropic Messages agent (as Claude Code talks): system blocks, tool_use/tool_result; the second call
    uses the SDK's stream helper, the third a raw stream=True."""
    client = trial.anthropic()
    tools = [{"name": n, "description": f"the {n} tool", "input_schema": s} for n, s in SCHEMAS.items()]
    messages: list[dict[str, Any]] = [{"role": "user", "content": instruction}]
    for step in range(10):
        request = {"model": MODEL, "system": [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}],
                   "messages": messages, "tools": tools, "max_tokens": 400,
                   "extra_body": {"temperature": 0}}  # this SDK no longer types sampling settings; agents send them
        if step == 1:
            with client.messages.stream(**request) as stream:
                message = stream.get_final_message()
            content = [b.model_dump(exclude_none=True) for b in message.content]
        elif step == 2:
            events = list(client.messages.create(**request, stream=True))
            assert [events[0].type, events[-2].type, events[-1].type] == ["message_start", "message_delta",
                                                                          "message_stop"]
            deltas = [e.delta for e in events if e.type == "content_block_delta"]
            text = "".join(d.text for d in deltas if d.type == "text_delta")
            start = next(e.content_block for e in events if e.type == "content_block_start"
                         and e.content_block.type == "tool_use")
            partial = "".join(d.partial_json for d in deltas if d.type == "input_json_delta")
            content = [{"type": "text", "text": text}, {"type": "tool_use", "id": start.id, "name": start.name,
                                                        "input": json.loads(partial)}]
        else:
            message = client.messages.create(**request)
            assert message.stop_reason == "tool_use"
            content = [b.model_dump(exclude_none=True) for b in message.content]
        use = next(b for b in content if b["type"] == "tool_use")
        messages += [{"role": "assistant", "content": content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use["id"],
                                                   "content": [{"type": "text", "text": f"output {step}"}]}]}]
        yield use["name"], json.dumps(use["input"]), use["id"]


AGENTS = {"chat": chat_agent, "responses": responses_agent, "anthropic": anthropic_agent}


def run_agent(protocol: str, url: str, folder: Path, instruction: str, max_calls: int, **trial_settings: Any
              ) -> tuple[Trial, list[tuple[str, str, str]], Exception]:
    with Trial(url, folder, max_calls, **trial_settings) as trial:
        calls: list[tuple[str, str, str]] = []
        with pytest.raises(Exception) as ended:
            for call in AGENTS[protocol](trial, instruction):
                calls.append(call)
        return trial, calls, ended.value


def test_every_protocol_gives_the_same_trial(sims, case, tmp_path) -> None:
    """Three agents, one per protocol, play the same solved case to the step limit (3 calls): the endpoint sees
    the same chat requests, the agents get the same tool calls, the trajectories and accounting are equal, and
    the refused fourth call reaches each SDK as PermissionDeniedError in its protocol's shape."""
    trials = {p: run_agent(p, sims["healthy"], tmp_path / p, case.instruction, max_calls=3) for p in AGENTS}
    chat_trial, chat_calls, _ = trials["chat"]
    assert [name for name, _, _ in chat_calls] == ["bash", "bash", "bash"]
    assert json.loads(chat_calls[1][1])["command"] == case.solution_script.read_text()
    for protocol, (trial, calls, error) in trials.items():
        assert calls == chat_calls, (protocol, error)
        sdk = anthropic if protocol == "anthropic" else openai
        assert isinstance(error, sdk.PermissionDeniedError), (protocol, error)
        body = error.body if protocol == "anthropic" else {"error": error.body}
        assert "step limit is 3" in json.dumps(body)
        if protocol == "anthropic":
            assert body["type"] == "error" and body["error"]["type"] == "permission_error"
        assert trial.guard.hit.status == "step_limit" and trial.guard.calls == 3 and trial.proxy.stop.is_set()
        summary = {k: v for k, v in trial.session.summary().items() if k != "generate_s"}
        expected = {k: v for k, v in chat_trial.session.summary().items() if k != "generate_s"}
        assert summary == expected and summary["calls"] == 3 and summary["cost_usd"] > 0, protocol
        model_events = trial.events("model")
        assert [(e["request"], e["message"], e["usage"]) for e in model_events] == [
            (e["request"], e["message"], e["usage"]) for e in chat_trial.events("model")], protocol
        assert all(e["request"]["seed"] == SEED for e in model_events)
        assert all(e.get("protocol", "chat") == protocol for e in model_events)
        assert [e["status"] for e in trial.events("proxy_refused")] == [403]


def test_refusals_come_in_each_protocols_shape_and_are_recorded(sims, case, tmp_path) -> None:
    """Provider-side tools, requests chat cannot carry, a wrong key and a wrong model never reach the endpoint;
    token counting is no model call."""
    with Trial(sims["healthy"], tmp_path, max_calls=5) as trial:
        oa, an = trial.openai(), trial.anthropic()
        with pytest.raises(openai.BadRequestError) as hosted:
            oa.responses.create(model=MODEL, input="search the web", tools=[{"type": "web_search"}])
        assert hosted.value.code == "provider_tool_refused" and "no-network rule" in hosted.value.message
        with pytest.raises(openai.BadRequestError) as mcp:
            oa.responses.create(model=MODEL, input="hi", tools=[{"type": "mcp", "server_label": "x",
                                                                  "server_url": "https://example.com/mcp"}])
        assert mcp.value.code == "provider_tool_refused"
        with pytest.raises(anthropic.BadRequestError) as server:
            an.messages.create(model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "hi"}],
                               tools=[{"type": "web_search_20250305", "name": "web_search"}])
        assert server.value.body == {"type": "error", "error": {"type": "invalid_request_error",
                                                                "message": server.value.body["error"]["message"]}}
        assert "web_search_20250305" in server.value.message
        with pytest.raises(anthropic.BadRequestError) as top_k:
            an.messages.create(model=MODEL, max_tokens=10, extra_body={"top_k": 5},
                               messages=[{"role": "user", "content": "hi"}])
        assert "top_k" in top_k.value.message
        with pytest.raises(anthropic.BadRequestError, match="only the model"):
            an.messages.create(model="claude-other", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
        with pytest.raises(anthropic.AuthenticationError):
            trial.anthropic("sk-guess").messages.create(model=MODEL, max_tokens=10,
                                                        messages=[{"role": "user", "content": "hi"}])
        with pytest.raises(openai.BadRequestError) as unknown:
            oa.responses.create(model=MODEL, input="hi", previous_response_id="resp_never")
        assert unknown.value.code == "previous_response_not_found"
        counted = an.messages.count_tokens(model=MODEL, system=SYSTEM, messages=[{"role": "user",
                                                                                  "content": case.instruction}])
        assert counted.input_tokens >= len(case.instruction) // 4
        assert trial.session.calls == 0 and trial.guard.calls == 0  # nothing reached the endpoint
        refused = trial.events("proxy_refused")
        assert [r["status"] for r in refused] == [400, 400, 400, 400, 400, 401, 400]
        assert refused[0]["provider_tools"] == ["web_search"] and refused[2]["provider_tools"] == [
            "web_search_20250305"]
        assert {r["protocol"] for r in refused} == {"responses", "anthropic"}


def test_the_simulator_speaks_each_protocol_and_fails_in_its_shape(sims, case) -> None:
    """Straight to the simulator: each SDK gets the same reply as chat (temperature honoured), a 429 with
    Retry-After as its RateLimitError, an overload as OpenAI's 503 or Anthropic's 529, a hang as its timeout."""
    oa = openai.OpenAI(base_url=sims["healthy"], api_key="sk-a", max_retries=0)
    an = anthropic.Anthropic(base_url=sims["healthy"].removesuffix("/v1"), api_key="sk-a", max_retries=0)
    tools = [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in SCHEMAS.items()]
    chat = oa.chat.completions.create(model=MODEL, temperature=0.9, tools=tools,  # Anthropic has no seed: none
                                      messages=[{"role": "user", "content": case.instruction}])
    responses = oa.responses.create(model=MODEL, temperature=0.9, input=case.instruction,
                                    tools=[{"type": "function", "name": n, "parameters": s, "strict": None}
                                           for n, s in SCHEMAS.items()])
    with an.messages.stream(model=MODEL, max_tokens=300, extra_body={"temperature": 0.9}, messages=[{"role": "user",
                            "content": case.instruction}], tools=[{"name": n, "input_schema": s}
                                                                  for n, s in SCHEMAS.items()]) as stream:
        message = stream.get_final_message()
    expected = chat.choices[0].message.tool_calls[0].function.arguments
    assert next(o for o in responses.output if o.type == "function_call").arguments == expected
    assert json.dumps(next(b for b in message.content if b.type == "tool_use").input) == expected
    assert message.usage.input_tokens == chat.usage.prompt_tokens

    tight_oa = openai.OpenAI(base_url=sims["tight"], api_key="sk-t", max_retries=0)
    tight_an = anthropic.Anthropic(base_url=sims["tight"].removesuffix("/v1"), api_key="sk-t", max_retries=0)
    tight_oa.responses.create(model=MODEL, input="hi")  # the key's one request this minute
    with pytest.raises(openai.RateLimitError) as limited:
        tight_oa.responses.create(model=MODEL, input="hi", stream=True)
    assert int(limited.value.response.headers["retry-after"]) >= 1
    with pytest.raises(anthropic.RateLimitError) as limited_an:
        tight_an.messages.create(model=MODEL, max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert limited_an.value.body["error"]["type"] == "rate_limit_error"
    assert int(limited_an.value.response.headers["retry-after"]) >= 1

    with pytest.raises(anthropic.OverloadedError) as overloaded:
        anthropic.Anthropic(base_url=sims["overloaded"].removesuffix("/v1"), api_key="sk-o", max_retries=0
                            ).messages.create(model=MODEL, max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert overloaded.value.status_code == 529 and overloaded.value.body["error"]["type"] == "overloaded_error"
    with pytest.raises(openai.InternalServerError) as busy:
        openai.OpenAI(base_url=sims["overloaded"], api_key="sk-o", max_retries=0).responses.create(
            model=MODEL, input="hi")
    assert busy.value.status_code == 503
    with pytest.raises(openai.APITimeoutError):
        openai.OpenAI(base_url=sims["hanging"], api_key="sk-h", max_retries=0, timeout=0.3).responses.create(
            model=MODEL, input="hi", stream=True)
    with pytest.raises(anthropic.APITimeoutError):
        anthropic.Anthropic(base_url=sims["hanging"].removesuffix("/v1"), api_key="sk-h", max_retries=0, timeout=0.3
                            ).messages.create(model=MODEL, max_tokens=5, messages=[{"role": "user", "content": "hi"}])


def test_the_nights_endpoint_may_speak_responses_or_anthropic(sims, case, tmp_path) -> None:
    """model.protocol: the gateway's chat-shaped calls reach the endpoint as Responses or Messages requests, and an
    Anthropic agent plays the same trial over each. Neither protocol carries a seed, so all three run unseeded."""
    stats = sims["healthy"].removesuffix("/v1") + "/sim/stats"
    before = httpx.get(stats).json()["by_protocol"]
    played = {}
    for upstream in ("chat", "responses", "anthropic"):
        trial, calls, error = run_agent("anthropic", sims["healthy"], tmp_path / upstream, case.instruction,
                                        max_calls=3, upstream=upstream, seed=0)
        assert isinstance(error, anthropic.PermissionDeniedError) and len(calls) == 3, (upstream, error)
        assert trial.session.summary()["calls"] == 3 and trial.session.input_tokens > 0, upstream
        assert trial.gateway.resolve_model_version(MODEL) == f"{MODEL}-2026-11-01"
        played[upstream] = calls
    assert played["responses"] == played["anthropic"] == played["chat"]
    after = httpx.get(stats).json()["by_protocol"]
    for upstream in ("responses", "anthropic"):  # three trial calls and the version check's one
        assert after.get(upstream, 0) - before.get(upstream, 0) == 4, (before, after)
