"""The model simulator: a real OpenAI-compatible server (driven with the openai SDK) and its policy."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest

from nightshift.simulator.cases import CaseBrief, CaseIndex
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import MODELS, Plan, action_at, decide, difficulty, reply, solve_probability
from nightshift.simulator.rate_limits import RateLimiter, format_duration
from nightshift.suites.loader import load_cases

KEY = "sk-test"
TOOLS = [
    {"type": "function", "function": {"name": "bash", "description": "Run a command",
                                      "parameters": {"type": "object",
                                                     "properties": {"command": {"type": "string"}},
                                                     "required": ["command"]}}},
    {"type": "function", "function": {"name": "submit", "description": "Finish",
                                      "parameters": {"type": "object", "properties": {}}}},
]
BUILTIN = Path(__file__).resolve().parent.parent / "suites" / "builtin"


def _write_suite(root: Path, n_cases: int = 8) -> Path:
    """A tiny suite: each case has a calc.py whose add() subtracts; solve.sh fixes it; test_a checks it."""
    root.mkdir(parents=True)
    (root / "suite.toml").write_text('name = "x"\n')
    for i in range(n_cases):
        case = root / f"case-{i:02d}"
        for sub in ("tests", "solution", "workspace"):
            (case / sub).mkdir(parents=True)
        (case / "case.toml").write_text(f'id = "case-{i:02d}"\ndomain = "python"\n[tests]\n'
                                        f'fail_to_pass = ["a"]\n')
        (case / "instruction.md").write_text(f"Case {i}: `add` in calc.py returns the wrong value.\n"
                                             f"Fix it so that add(2, {i}) == {2 + i}.\n")
        (case / "tests" / "test_a.sh").write_text(
            f"#!/bin/bash\nset -e\npython3 -c 'import calc; assert calc.add(2, {i}) == {2 + i}'\n")
        (case / "solution" / "solve.sh").write_text("#!/bin/bash\nsed -i 's/a - b/a + b/' calc.py\n")
        (case / "workspace" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
        (case / "workspace" / "README.txt").write_text("A calculator.\n")
    return root


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_suite(tmp_path_factory.mktemp("sim") / "suite")


@pytest.fixture(scope="module")
def briefs(suite: Path) -> list[CaseBrief]:
    return [CaseBrief.from_case(c) for c in load_cases(suite)]


@pytest.fixture(scope="module")
def sim(suite: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log = tmp_path_factory.mktemp("simlog") / "requests.jsonl"
    with running_simulator(SimulatorConfig(latency_ms=2), [suite], log) as url:
        yield url, log


@pytest.fixture(scope="module")
def limited(suite: Path) -> Iterator[str]:
    with running_simulator(SimulatorConfig(latency_ms=0, requests_per_minute=3), [suite]) as url:
        yield url


@pytest.fixture(scope="module")
def faulty(suite: Path) -> Iterator[str]:
    with running_simulator(SimulatorConfig(latency_ms=0, fault_rate=1.0), [suite]) as url:
        yield url


def _client(url: str, key: str = KEY) -> openai.OpenAI:
    return openai.OpenAI(base_url=url, api_key=key, max_retries=0, timeout=10)


def _play(client: openai.OpenAI, model: str, instruction: str, seed: int, max_steps: int = 8) -> list[tuple]:
    """Drive one trial the way a harness would; returns (tool name, arguments) per step."""
    messages: list[dict] = [{"role": "system", "content": "You are an agent."},
                            {"role": "user", "content": f"Task:\n{instruction}\nGood luck."}]
    calls = []
    for _ in range(max_steps):
        resp = client.chat.completions.create(model=model, messages=messages, tools=TOOLS, seed=seed,
                                              temperature=0.7, max_tokens=256)
        msg = resp.choices[0].message
        call = msg.tool_calls[0]
        calls.append((call.function.name, call.function.arguments))
        messages.append(msg.model_dump(exclude_none=True))
        if call.function.name == "submit":
            break
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "ok"})
    return calls


# ---------------------------------------------------------------------------- served over HTTP


def test_models_lists_aliases_and_snapshots(sim: tuple[str, Path]) -> None:
    ids = {m.id for m in _client(sim[0]).models.list()}
    assert {"sim-strong", "sim-weak", "sim-medium", "sim-strong-2026-11-01", "sim-weak-2026-11-01"} <= ids


def test_completion_is_a_bash_tool_call_from_the_snapshot(sim: tuple[str, Path],
                                                          briefs: list[CaseBrief]) -> None:
    case = briefs[0]
    resp = _client(sim[0]).chat.completions.create(
        model="sim-strong", tools=TOOLS, seed=1,
        messages=[{"role": "user", "content": f"Please solve this.\n\n{case.instruction}\n"}])
    choice = resp.choices[0]
    assert resp.model == "sim-strong-2026-11-01"
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content
    assert len(choice.message.tool_calls) == 1
    call = choice.message.tool_calls[0]
    assert call.id.startswith("call_") and call.type == "function" and call.function.name == "bash"
    assert json.loads(call.function.arguments)["command"]
    assert resp.usage.prompt_tokens >= len(case.instruction) // 4
    assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens
    assert int(sim_headers(sim[0])["x-ratelimit-limit-requests"]) == 6000


def sim_headers(url: str) -> httpx.Headers:
    resp = httpx.post(f"{url}/chat/completions", headers={"Authorization": f"Bearer {KEY}-headers"},
                      json={"model": "sim-weak", "messages": [{"role": "user", "content": "hi"}]})
    assert resp.status_code == 200
    return resp.headers


def test_unknown_case_or_tool_choice_none_gets_plain_ok(sim: tuple[str, Path], briefs: list[CaseBrief]) -> None:
    client = _client(sim[0])
    unknown = client.chat.completions.create(model="sim-strong", tools=TOOLS,
                                             messages=[{"role": "user", "content": "write a poem"}])
    refused = client.chat.completions.create(model="sim-strong", tools=TOOLS, tool_choice="none",
                                             messages=[{"role": "user", "content": briefs[0].instruction}])
    for resp in (unknown, refused):
        assert resp.choices[0].message.content == "ok"
        assert resp.choices[0].finish_reason == "stop"
        assert not resp.choices[0].message.tool_calls


MINI_ACTION = re.compile(r"```mswea_bash_command\s*\n(.*?)\n```", re.DOTALL)  # mini-swe-agent 2.4.6's regex


def test_without_tools_it_plays_the_text_protocol(sim: tuple[str, Path], briefs: list[CaseBrief]) -> None:
    """No tools offered: exactly one fenced bash block per reply, the same plan as with tools, and
    mini-swe-agent's own finishing command at the end of a solve."""
    client = _client(sim[0])
    case = next(b for b in briefs if decide("sim-strong", b.id, 1) is Plan.solve)
    messages: list[dict] = [{"role": "system", "content": "agent"},
                            {"role": "user", "content": f"Please solve this issue: {case.instruction}"}]
    commands = []
    for _ in range(6):
        resp = client.chat.completions.create(model="sim-strong", messages=messages, seed=1)
        text = resp.choices[0].message.content
        assert not resp.choices[0].message.tool_calls and resp.choices[0].finish_reason == "stop"
        blocks = MINI_ACTION.findall(text)
        assert len(blocks) == 1, text
        commands.append(blocks[0])
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": "<returncode>0</returncode>"}]
        if blocks[0] == "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT":
            break
    assert commands[-1] == "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
    assert case.solution.strip() in commands[1] and commands[1].startswith("bash <<'NIGHTSHIFT_SCRIPT'")
    tool_plan = [name for name, _ in _play(client, "sim-strong", case.instruction, seed=1)]
    assert len(tool_plan) == len(commands)  # same steps, other protocol


def test_same_seed_same_tool_calls_and_seeds_change_decisions(sim: tuple[str, Path],
                                                              briefs: list[CaseBrief]) -> None:
    client = _client(sim[0])
    # a case and two seeds where sim-medium's plan differs (solve vs not)
    case, seed_solve, seed_other = None, None, None
    for brief in briefs:
        plans = {s: decide("sim-medium", brief.id, s, temperature=0.7) for s in range(40)}
        solving = [s for s, p in plans.items() if p is Plan.solve]
        wrong = [s for s, p in plans.items() if p is Plan.wrong]
        if solving and wrong:
            case, seed_solve, seed_other = brief, solving[0], wrong[0]
            break
    assert case is not None, "no case of the suite has both solved and wrong trials over 40 seeds"
    first = _play(client, "sim-medium", case.instruction, seed_solve)
    again = _play(client, "sim-medium-2026-11-01", case.instruction, seed_solve)
    other = _play(client, "sim-medium", case.instruction, seed_other)
    assert first == again
    assert first[-1][0] == "submit" and other[-1][0] == "submit"
    assert any(json.loads(args).get("command") == case.solution for _, args in first)
    assert not any(json.loads(args).get("command") == case.solution for _, args in other)
    assert first != other


def test_missing_key_is_401_and_unknown_model_404_and_a_stream_is_chunks(sim: tuple[str, Path]) -> None:
    url = sim[0]
    body = {"model": "sim-strong", "messages": [{"role": "user", "content": "hi"}]}
    resp = httpx.post(f"{url}/chat/completions", json=body)
    assert resp.status_code == 401
    assert resp.json()["error"]["type"] == "invalid_request_error"
    with pytest.raises(openai.NotFoundError) as err:
        _client(url).chat.completions.create(model="gpt-nope", messages=body["messages"])
    assert err.value.code == "model_not_found"
    chunks = list(_client(url).chat.completions.create(model="sim-strong", messages=body["messages"], stream=True,
                                                         stream_options={"include_usage": True}))
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "ok"
    assert chunks[-2].choices[0].finish_reason == "stop" and chunks[-1].usage.completion_tokens >= 1


def test_log_has_key_hash_never_the_key(sim: tuple[str, Path], briefs: list[CaseBrief]) -> None:
    url, log = sim
    secret = "sk-very-secret-key-123"
    _client(url, secret).chat.completions.create(
        model="sim-weak", tools=TOOLS, seed=7, messages=[{"role": "user", "content": briefs[1].instruction}])
    httpx.post(f"{url}/chat/completions", json={"model": "sim-weak", "messages": []})  # 401, no key
    text = log.read_text()
    assert secret not in text and KEY not in text
    rows = [json.loads(line) for line in text.splitlines()]
    mine = [r for r in rows if r["key_hash"] == hashlib.sha256(secret.encode()).hexdigest()[:8]]
    assert len(mine) == 1
    assert mine[0]["case_id"] == briefs[1].id and mine[0]["seed"] == 7 and mine[0]["status"] == 200
    assert mine[0]["prompt_tokens"] > 0 and mine[0]["completion_tokens"] > 0
    assert any(r["status"] == 401 and r["key_hash"] is None for r in rows)
    stats = httpx.get(url.removesuffix("/v1") + "/sim/stats").json()
    assert stats["requests"] == len(rows)
    assert stats["by_status"]["401"] >= 1 and stats["tokens"] > 0


def test_rate_limit_429_with_headers_and_counted(limited: str) -> None:
    client = _client(limited, "sk-limited")
    messages = [{"role": "user", "content": "hi"}]
    for _ in range(3):
        raw = client.chat.completions.with_raw_response.create(model="sim-strong", messages=messages)
        assert raw.headers["x-ratelimit-limit-requests"] == "3"
    assert raw.headers["x-ratelimit-remaining-requests"] == "0"
    with pytest.raises(openai.RateLimitError) as err:
        client.chat.completions.create(model="sim-strong", messages=messages)
    headers = err.value.response.headers
    assert int(headers["retry-after"]) >= 1 and int(headers["retry-after-ms"]) > 0
    for name in ("limit-requests", "limit-tokens", "remaining-requests", "remaining-tokens",
                 "reset-requests", "reset-tokens"):
        assert f"x-ratelimit-{name}" in headers
    assert headers["x-ratelimit-remaining-requests"] == "0"
    assert err.value.body["type"] == "requests" and err.value.code == "rate_limit_exceeded"
    # another key has its own quota
    _client(limited, "sk-other").chat.completions.create(model="sim-strong", messages=messages)
    stats = httpx.get(limited.removesuffix("/v1") + "/sim/stats").json()
    assert stats["by_status"] == {"200": 4, "429": 1} and stats["requests"] == 5


def test_fault_rate_one_gives_5xx(faulty: str) -> None:
    client = _client(faulty)
    for _ in range(3):
        with pytest.raises(openai.InternalServerError) as err:
            client.chat.completions.create(model="sim-strong", messages=[{"role": "user", "content": "hi"}])
        assert err.value.status_code in (500, 503)
        assert err.value.body["type"] == "server_error"


def test_embedded_start_failure_names_the_problem(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="suite.toml"), running_simulator(SimulatorConfig(), [tmp_path]):
        pass


# ---------------------------------------------------------------------------- policy and rate limits


def test_strong_solves_more_than_weak(briefs: list[CaseBrief]) -> None:
    try:
        ids = [c.id for c in load_cases(BUILTIN)] if BUILTIN.is_dir() else []
    except ValueError:
        ids = []
    ids = ids or [b.id for b in briefs]
    for model_ids in (ids, [f"synthetic-{i}" for i in range(300)]):
        rates = {m: sum(decide(m, cid, s) is Plan.solve for cid in model_ids for s in range(10))
                 / (10 * len(model_ids)) for m in MODELS}
        assert rates["sim-strong"] > rates["sim-medium"] > rates["sim-weak"]
    expected = {m: sum(solve_probability(m, f"synthetic-{i}") for i in range(300)) / 300 for m in MODELS}
    assert 0.72 <= expected["sim-strong"] <= 0.88
    assert 0.33 <= expected["sim-weak"] <= 0.47
    wander = sum(decide("sim-weak", f"synthetic-{i}", 0) is Plan.wander for i in range(1000)) / 1000
    assert 0.03 <= wander <= 0.12
    assert all(0 <= difficulty(f"synthetic-{i}") < 1 for i in range(100))


def _run_plan(brief: CaseBrief, case_dir: Path, workdir: Path, model: str, seed: int) -> bool:
    """Execute the trial's bash calls in a copy of the workspace, then run test_a; True if it passes."""
    shutil.copytree(case_dir / "workspace", workdir)
    messages: list[dict] = [{"role": "user", "content": brief.instruction}]
    for _ in range(6):
        out = reply(model, brief, seed, messages, TOOLS)
        call = out.tool_call
        assert call is not None
        if call["function"]["name"] == "submit":
            break
        subprocess.run(["bash", "-c", json.loads(call["function"]["arguments"])["command"]], cwd=workdir,
                       check=False, capture_output=True, timeout=10)
        messages += [{"role": "assistant", "content": out.content, "tool_calls": [call]},
                     {"role": "tool", "tool_call_id": call["id"], "content": "ok"}]
    test = subprocess.run(["bash", str(case_dir / "tests" / "test_a.sh")], cwd=workdir, capture_output=True)
    return test.returncode == 0


def test_solve_plans_pass_the_tests_and_wrong_plans_do_not(suite: Path, briefs: list[CaseBrief],
                                                           tmp_path: Path) -> None:
    seen = set()
    for brief in briefs[:4]:
        for seed in range(30):
            plan = decide("sim-medium", brief.id, seed)
            if plan is Plan.wander or (brief.id, plan) in seen:
                continue
            seen.add((brief.id, plan))
            passed = _run_plan(brief, suite / brief.id, tmp_path / f"{brief.id}-{seed}", "sim-medium", seed)
            assert passed == (plan is Plan.solve), (brief.id, seed, plan)
    assert {p for _, p in seen} == {Plan.solve, Plan.wrong}


def test_wander_never_submits(briefs: list[CaseBrief]) -> None:
    found = [(b, s) for b in briefs for s in range(200) if decide("sim-weak", b.id, s) is Plan.wander]
    assert found
    brief, seed = found[0]
    actions = [action_at("sim-weak", brief, seed, step) for step in range(30)]
    assert all(a.tool == "bash" for a in actions)
    assert brief.solution not in {a.command for a in actions}


def test_case_index_prefers_the_longest_matching_instruction() -> None:
    short = CaseBrief("short", "Fix the bug.", "true")
    long = CaseBrief("long", "Fix the bug. Also add a test.", "true")
    index = CaseIndex([short, long])
    assert index.match([{"role": "user", "content": "x Fix the bug. Also add a test. y"}]) == long
    assert index.match([{"role": "user", "content": [{"type": "text", "text": "Fix the bug."}]}]) == short
    assert index.match([{"role": "system", "content": "Fix the bug."}]) is None


def test_format_duration_like_openai() -> None:
    assert [format_duration(s) for s in (0, 0.12, 1, 1.5, 360, 61.25, 3661)] == \
        ["0s", "120ms", "1s", "1.5s", "6m0s", "1m1.25s", "1h1m1s"]


def test_token_bucket_refills_and_counts_rejected() -> None:
    now = [0.0]
    limiter = RateLimiter(requests_per_minute=60, tokens_per_minute=600, clock=lambda: now[0])
    assert limiter.acquire("k", 500).allowed
    rejected = limiter.acquire("k", 200)
    assert not rejected.allowed and rejected.kind == "tokens"
    assert rejected.retry_after_s == pytest.approx(10.0)  # 100 missing tokens at 10 tokens/s
    assert rejected.headers["x-ratelimit-remaining-requests"] == "58"  # the rejected one counted
    assert rejected.rejection_headers()["retry-after"] == "10"
    now[0] = 10.0
    ok = limiter.acquire("k", 200)
    assert ok.allowed and ok.headers["x-ratelimit-remaining-tokens"] == "0"
    lenient = RateLimiter(60, 600, count_rejected=False, clock=lambda: 0.0)
    lenient.acquire("k", 600)
    assert lenient.acquire("k", 1).headers["x-ratelimit-remaining-requests"] == "59"
    too_big = lenient.acquire("j", 10_000)
    assert not too_big.allowed and "too large" in too_big.message



def test_temperature_changes_plans_with_seeded_noise_that_grows_with_it() -> None:
    """A variant that changes only the temperature must not compare as exactly +0.0."""
    from nightshift.simulator.policy import decide

    cases = [f"case-{i}" for i in range(200)]
    base = [decide("sim-medium", c, 1) for c in cases]
    assert base == [decide("sim-medium", c, 1, temperature=0.0) for c in cases]  # 0: exactly the seed's plan
    assert [decide("sim-medium", c, 1, temperature=0.7) for c in cases] == [
        decide("sim-medium", c, 1, temperature=0.7) for c in cases]  # seeded: reproducible
    changed = {t: sum(a != decide("sim-medium", c, 1, temperature=t) for a, c in zip(base, cases, strict=True))
               for t in (0.2, 1.0)}
    assert 0 < changed[0.2] < changed[1.0]
