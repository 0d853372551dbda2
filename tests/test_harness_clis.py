"""Codex CLI (OpenAI Responses) and Claude Code (Anthropic Messages), the real binaries from their vendors' PyPI
wheels, run inside a bubblewrap sandbox and solve a builtin case through the keyless proxy against the simulator
(Chat Completions) that answers 429s and 500s on the way: the variants of experiments/clis.yaml (`kind:
installed`, the catalogue's entries), run as a night runs them (execute_trial); Codex on docker too, as the
`kind: command` harness the entry resolves to (its `log:` block reading the same session files). Then the same
CLIs (as that command form, whose run line a test can edit) meet a per-trial token limit and end token_limit,
as the reference loop does, and a refusal in their protocol's error shape, which they report.

Each derived image (python3-venv from Debian, the pinned wheel from PyPI) is built once per content key: about
a minute each the first time on this machine, reused afterwards (docs/HARNESSES.md has the figures).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import yaml

from nightshift.experiment.config import HarnessSpec, ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.harnesses.cli_recipes import RECIPES
from nightshift.harnesses.pins import derive
from nightshift.harnesses.relay import STOPPED_EXIT
from nightshift.harnesses.resolve import resolve_harness
from nightshift.models import TrialStatus
from nightshift.simulator.cases import CaseBrief
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.suites.loader import open_case
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN, REPO
from tests.sandbox_support import make_backend
from tests.test_harness_command import LIMITS, SECRET

VARIANTS = {v["name"]: v for v in yaml.safe_load((REPO / "experiments" / "clis.yaml").read_text())["variants"]}
CLI_LIMITS = LIMITS.model_copy(update={"memory_mb": 2048, "pids": 512, "disk_mb": 256, "output_kb": 256})
PROTOCOL = {"codex": "responses", "claude-code": "anthropic"}
LOG_FOLDER = {"codex": "/tmp/codex-home/sessions", "claude-code": "/tmp/claude-config/projects"}


def _command(name: str) -> dict:
    """The experiment's installed variant as the `kind: command` harness it resolves to (its run line is
    editable there), reading the agent's log through a `log:` block instead of the catalogue's mapper."""
    spec = resolve_harness(HarnessSpec.model_validate(VARIANTS[name]["harness"])).spec
    harness = {"kind": "command", "max_steps": spec.max_steps, "install": spec.install, "run": spec.run,
               "env": spec.env, "log": {"format": name, "path": LOG_FOLDER[name]}}
    return {**VARIANTS[name], "harness": harness}


def test_the_experiment_names_the_catalogue_entries() -> None:
    for name, entry in RECIPES.items():
        harness = VARIANTS[name]["harness"]
        assert (harness["kind"], harness["name"], harness["version"]) == ("installed", name, entry.versions[0])
        resolved = resolve_harness(HarnessSpec.model_validate(harness))
        assert resolved.identity["protocol"] == PROTOCOL[name] and resolved.agent is not None
        assert resolved.spec.install == [line.replace("{version}", entry.versions[0]) for line in entry.install]


@pytest.fixture(scope="module")
def cli_backends():
    # the installed entry and its command form have the same install lines: one derived image each
    return {name: derive(make_backend("bubblewrap"), Variant.model_validate(_command(name)).harness)[0]
            for name in RECIPES}


# an endpoint that pushes back: a bucket of 2 requests refilled at 2/s (the gateway paces to its quota headers)
# and a third of admitted requests failing 500 or 503; the gateway retries, so the CLI sees none of it, as the
# reference loop sees none
STRESSED = SimulatorConfig(latency_ms=2, requests_per_minute=120, burst_s=1, faults={"500": 0.2, "503": 0.15}, seed=4)


CALM = SimulatorConfig(latency_ms=2)


def _trial(backend, tmp_path: Path, case, variant: dict, trial_id: str, config: SimulatorConfig = CALM):
    with running_simulator(config, [BUILTIN]) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint(prices={
            "sim-strong": {"input_per_mtok": 2.0, "output_per_mtok": 8.0}}))
        ctx = TrialContext(run_dir=tmp_path, backend=backend, grader=CaseGrader(), gateway=gateway, limits=CLI_LIMITS)
        spec = TrialSpec(trial_id=trial_id, run_id="r", case=case, seed=1, model_version="s",
                         variant=Variant.model_validate(variant))
        row = execute_trial(spec, ctx)
        tmp_path.joinpath("sim-stats.json").write_text(httpx.get(url.removesuffix("/v1") + "/sim/stats").text)
    text = (tmp_path / "trajectories" / f"{trial_id}.jsonl").read_text()
    return row, text, [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_vendor_cli_solves_through_the_proxy(name: str, cli_backends, tmp_path: Path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id in ("py-bugfix-slugify", "sh-csv-column-sum")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    row, text, events = _trial(cli_backends[name], tmp_path, case, VARIANTS[name], f"{name}-1", STRESSED)
    pushed_back = json.loads((tmp_path / "sim-stats.json").read_text())["by_status"]
    assert pushed_back.get("500", 0) + pushed_back.get("503", 0) > 0, pushed_back
    with open_case(case) as opened:
        oracle = json.dumps(CaseBrief.from_case(opened).solution.strip().splitlines()[0])[1:-1]
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-3000:], end["stderr"][-3000:])
    calls = [e for e in events if e["event"] == "model"]
    assert {e["protocol"] for e in calls} == {PROTOCOL[name]} and all(e["wire_request"]["stream"] for e in calls)
    assert len(calls) == pushed_back["200"] >= 4 and row.cost_usd > 0  # each retried call is one model line
    # the CLI ran the simulator's commands with its own shell tool and logged them; the catalogue's mapper
    # mapped the log folder's files
    shown = next(e for e in events if e["event"] == "agent_log")
    assert shown["agent"] == name and shown["bytes"] and shown["events"] and "error" not in shown, shown
    tools = [e for e in events if e["event"] == "tool" and e.get("source") == "agent_log"]
    assert {t["format"] for t in tools} == {name}
    assert len(tools) >= 3 and any(oracle in json.dumps(t["call"]["function"]["arguments"])
                                                 for t in tools), tools
    assert all(t["step"] >= 1 for t in tools)
    issued = {c["id"] for e in calls for c in e["message"].get("tool_calls") or []}
    assert {t["call"]["id"] for t in tools} <= issued  # the same ids as the proxy's record of the calls
    assert SECRET not in text


@pytest.fixture(scope="module")
def codex_on_docker():
    return derive(make_backend("docker"), Variant.model_validate(_command("codex")).harness)[0]


def test_codex_solves_on_docker_too(codex_on_docker, tmp_path: Path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id in ("py-bugfix-slugify", "sh-csv-column-sum")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    row, text, events = _trial(codex_on_docker, tmp_path, case, _command("codex"), "codex-docker")
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-3000:], end["stderr"][-3000:])
    assert {e["protocol"] for e in events if e["event"] == "model"} == {"responses"}
    assert [e for e in events if e["event"] == "tool" and e.get("source") == "codex"]
    assert SECRET not in text


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_token_limit_reaches_the_cli_and_ends_the_trial(name: str, cli_backends, tmp_path: Path,
                                                          builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id == "py-bugfix-slugify")
    # each CLI's first request alone is thousands of tokens: the second call is past the limit
    variant = {**_command(name), "max_tokens": 1000}
    row, text, events = _trial(cli_backends[name], tmp_path, case, variant, f"{name}-limit")
    assert row.status == TrialStatus.token_limit, row.reason
    # the first reply was paid for and delivered; then the proxy's stop made the relay end the CLI
    assert row.model_calls == len([e for e in events if e["event"] == "model"]) == 1
    end = next(e for e in events if e["event"] == "command_end")
    # the relay's kill (125), or the CLI's own exit on the 403 of a next request that got there first
    assert end["exit_code"] != 0 and (end["exit_code"] != STOPPED_EXIT
                                      or "the model proxy stopped this agent" in end["stderr"]), end
    assert any(e["event"] == "agent_log" for e in events)  # what the CLI had logged is read all the same
    assert SECRET not in text


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_refusal_reaches_the_cli_in_its_protocol_and_it_stops(name: str, cli_backends, tmp_path: Path,
                                                                builtin_cases) -> None:
    """A CLI asking for another model is answered 400 in its protocol's error shape; the CLI reads the message,
    says it and exits non-zero: agent_error with that message in the reason, the model never called."""
    case = next(c for c in builtin_cases if c.id == "py-bugfix-slugify")
    command = _command(name)
    harness = {**command["harness"], "run": command["harness"]["run"].replace(
        "-m {model}" if name == "codex" else "--model {model}", "-m gpt-9" if name == "codex" else "--model claude-9")}
    row, text, events = _trial(cli_backends[name], tmp_path, case, {**command, "harness": harness},
                               f"{name}-refused")
    refused = [e for e in events if e["event"] == "proxy_refused"]
    assert refused and {(e["status"], e["protocol"]) for e in refused} == {(400, PROTOCOL[name])}
    assert row.status == TrialStatus.agent_error and row.model_calls == 0, row.reason
    end = next(e for e in events if e["event"] == "command_end")
    assert "this trial may use only the model 'sim-strong'" in end["stdout"] + end["stderr"], end  # the CLI said it


def test_codex_with_web_search_on_is_refused_and_the_refusal_recorded(cli_backends, tmp_path: Path,
                                                                      builtin_cases) -> None:
    """The recipe turns Codex's hosted web search off; turned back on, the proxy refuses the tool (it would run
    on the provider's servers, off the sandbox's network rule) and records which."""
    case = next(c for c in builtin_cases if c.id == "py-bugfix-slugify")
    command = _command("codex")
    harness = {**command["harness"], "run": command["harness"]["run"].replace(
        "-m {model}", "-m {model} -c 'web_search=\"live\"'")}
    row, text, events = _trial(cli_backends["codex"], tmp_path, case, {**command, "harness": harness},
                               "codex-web-search")
    refused = [e for e in events if e["event"] == "proxy_refused"]
    assert refused and all(e["provider_tools"] == ["web_search"] for e in refused), refused
    assert row.status == TrialStatus.agent_error and row.model_calls == 0, row.reason
