"""Every injected fault kind ends in a retry that succeeds, or, when it never stops, in an infra_error."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from nightshift.errors import GatewayError
from nightshift.gateway import ModelGateway
from nightshift.gateway.retry import BackoffWait
from nightshift.harnesses.tool_agent import ReferenceSettings, ToolAgent
from nightshift.simulator.config import FAULT_KINDS, SimulatorConfig
from nightshift.simulator.embedded import running_simulators
from nightshift.simulator.request_log import key_hash, read_log

KEY = "sk-fault-test"
HELLO = [{"role": "user", "content": "hello there"}]
# what GatewaySession.failures and the GatewayError call each fault kind
SEEN_AS = {"500": "500", "503": "503", "timeout": "timeout", "reset": "connection", "truncated": "connection",
           "malformed": "bad_json"}


@pytest.fixture(scope="module")
def endpoints(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, Path]]]:
    """One simulator that always meets each fault kind, one ("mixed") that meets each now and then, and
    one ("small") with a quota of 500 tokens/min."""
    root = tmp_path_factory.mktemp("faults")
    configs = {kind: SimulatorConfig(latency_ms=1, faults={kind: 1.0}, hang_s=1) for kind in FAULT_KINDS}
    configs["mixed"] = SimulatorConfig(latency_ms=1, faults={k: 0.05 for k in FAULT_KINDS}, hang_s=1, seed=3)
    configs["small"] = SimulatorConfig(latency_ms=1, tokens_per_minute=500)
    specs = {name: (cfg, [], root / f"{name}.jsonl") for name, cfg in configs.items()}
    with running_simulators(specs) as urls:
        yield {name: (url, root / f"{name}.jsonl") for name, url in urls.items()}


def fast_gateway(url: str, max_retries: int = 2) -> ModelGateway:
    return ModelGateway(url, KEY, max_retries=max_retries, timeout_s=0.5,
                        backoff=BackoffWait(initial_s=0.01, max_s=0.05))


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_a_fault_that_never_stops_is_retried_then_a_gateway_error(kind: str, endpoints) -> None:
    url, log = endpoints[kind]
    session = fast_gateway(url).session()
    with pytest.raises(GatewayError) as err:
        session.chat(model="sim-strong", messages=HELLO, tools=[], temperature=0, seed=1, max_tokens=16)
    assert f"after 3 attempt(s), last: {SEEN_AS[kind]}" in str(err.value)
    assert session.calls == 3 and session.failures == {SEEN_AS[kind]: 2}
    assert session.retry_wait_s > 0 and session.input_tokens == 0
    mine = [r for r in read_log(log) if r["key_hash"] == key_hash(KEY)]
    assert [r["fault"] for r in mine] == [kind] * 3
    assert KEY not in str(err.value)


def test_occasional_faults_of_every_kind_are_retried_to_success(endpoints) -> None:
    url, log = endpoints["mixed"]
    session = fast_gateway(url, max_retries=10).session()
    for i in range(20):
        reply = session.chat(model="sim-strong", messages=[{"role": "user", "content": f"call {i}"}], tools=[],
                             temperature=0, seed=i, max_tokens=16)
        assert reply["message"]["content"] == "ok"
    rows = [r for r in read_log(log) if r["key_hash"] == key_hash(KEY)]
    assert len(rows) == session.calls
    assert sum(r["fault"] is None for r in rows) == 20
    assert sum(session.failures.values()) == session.calls - 20 >= 3
    assert {r["fault"] for r in rows} > {None}
    assert session.input_tokens > 0 and session.output_tokens == 20


def test_client_errors_are_not_retried(endpoints) -> None:
    session = fast_gateway(endpoints["mixed"][0]).session()
    with pytest.raises(GatewayError, match="after 1 attempt.*404"):
        session.chat(model="no-such-model", messages=HELLO, tools=[], temperature=0, seed=1, max_tokens=16)


def test_the_agent_ends_as_infra_error_not_as_a_failure(endpoints, builtin_cases, tmp_path: Path) -> None:
    session = fast_gateway(endpoints["503"][0], max_retries=1).session()
    agent = ToolAgent("sim-strong", ReferenceSettings(max_steps=3))
    outcome = agent.run(builtin_cases[0], sandbox=None, model=session, seed=1,  # never reached
                        trajectory_path=tmp_path / "t.jsonl")
    assert outcome.ended_by == "infra_error" and outcome.steps == 0
    assert "503" in outcome.reason
    assert '"infra_error"' in (tmp_path / "t.jsonl").read_text()


def test_a_request_larger_than_the_quota_fails_at_once_and_pauses_nobody(endpoints) -> None:
    url, log = endpoints["small"]
    gateway = fast_gateway(url)
    with pytest.raises(GatewayError, match="after 1 attempt.*429.*too large"):  # the endpoint's word
        gateway.session().chat(model="sim-strong", messages=HELLO, tools=[], temperature=0, seed=1,
                               max_tokens=1000)
    assert gateway.gate.snapshot()["pauses"] == 0 and gateway.gate.quota.tokens_per_minute == 500
    with pytest.raises(GatewayError, match="exceeds the key's 500 tokens/min; lower the variant's max_tokens"):
        gateway.session().chat(model="sim-strong", messages=HELLO, tools=[], temperature=0, seed=1,
                               max_tokens=1000)  # known now: not even sent
    assert len(read_log(log)) == 1
