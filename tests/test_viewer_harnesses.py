"""The viewer explains any harness: a Python harness that crashes and one that writes its own events, run as a
night runs them (execute_trial: sandbox, harness, grader), drawn in chromium with the instruction, the steps,
the traceback and the line that does not fit the event schema; a command harness's proxy events become steps;
a malformed event is flagged as it is written.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from nightshift.experiment.config import ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.plugin import TrajectoryLog, event_problems
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.tasks.results import read_results, write_parquet, write_result
from nightshift.tasks.run_trial import TrialContext, execute_trial
from nightshift.trajectory import start_trajectory
from nightshift.viewer.run_data import RunData
from nightshift.viewer.server import write_static
from nightshift.viewer.steps import read_trajectory
from tests.conftest import BUILTIN
from tests.sandbox_support import SMALL, make_backend
from tests.test_viewer import SHOTS, _browser

HARNESSES = {"crash": "tests.harness_plugins:Raises", "own": "tests.harness_plugins:WritesItsOwnEvents"}


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory, builtin_cases) -> tuple[RunData, dict[str, str]]:
    """One case under each harness, into one run folder; returns the run and harness name -> trial id."""
    run_dir = tmp_path_factory.mktemp("harnesses") / "night-h"
    case = next(c for c in builtin_cases if c.split != "heldout")
    ids = {}
    with running_simulator(SimulatorConfig(latency_ms=1), [BUILTIN]) as url:
        ctx = TrialContext(run_dir=run_dir, backend=make_backend("bubblewrap"), limits=SMALL,
                           gateway=ModelGateway.from_settings(url, "sk-t", ModelEndpoint()), grader=CaseGrader())
        for name, entrypoint in HARNESSES.items():
            spec = TrialSpec(trial_id=f"{name}-{time.monotonic_ns()}", run_id=run_dir.name, case=case, seed=1,
                             model_version="s", variant=Variant(name=name, model="sim-strong",
                                                                harness={"kind": "python", "entrypoint": entrypoint}))
            write_result(run_dir, execute_trial(spec, ctx))
            ids[name] = spec.trial_id
    write_parquet(read_results(run_dir, list(ids.values())), run_dir / "results.parquet")
    return RunData.open(run_dir), ids


def test_a_crash_keeps_its_instruction_and_traceback(night, builtin_cases) -> None:
    run, ids = night
    record = run.trial(ids["crash"])
    assert record["row"]["status"] == "agent_error"
    case = next(c for c in builtin_cases if c.id == record["row"]["case_id"])
    assert record["instruction"] == case.instruction  # nightshift's trial line: the harness wrote none
    assert record["steps"] == []
    [ending] = [e for e in record["ending"] if e["event"] == "agent_error"]
    assert "KeyError" in ending["text"] and "plan_for_step_7" in ending["long"] and "Traceback" in ending["long"]


def test_a_harness_that_writes_its_own_events_has_its_steps_and_is_told_of_the_bad_line(night) -> None:
    run, ids = night
    record = run.trial(ids["own"])
    assert record["row"]["status"] in ("resolved", "failed")
    first, second = record["steps"]
    assert first["text"] == "First I look at the files."
    assert [(c["name"], c["command"]) for c in first["calls"]] == [("shell", "ls")]  # announced by no model event
    assert first["calls"][0]["output"]  # the listing
    assert second["notes"] == ["the listing shows the workspace; nothing to change", "plan: submit as is"]
    assert second["end"] == "submit"
    [problem] = record["problems"]
    assert problem == {"of": "tool", "field": "call.id", "step": 2, "error": "call.id: Field required"}
    lines = [json.loads(x) for x in (run.path / "trajectories" / f"{ids['own']}.jsonl").read_text().splitlines()]
    assert lines[0]["event"] == "trial"
    assert [x["event"] for x in lines].count("invalid_event") == 1  # flagged when written, right after the line


def test_in_a_browser_every_harness_shows_instruction_steps_and_traceback(night, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    run, ids = night
    out = tmp_path / "static"
    write_static(run, None, out)
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((out / "index.html").as_uri() + f"#trial=a:{ids['crash']}")
        page.wait_for_selector("#detail h3")
        detail = page.locator("#detail")
        assert page.locator("#detail details.task pre").inner_text().strip()  # the instruction, open
        assert "steps (0)" in detail.inner_text() and "the harness wrote no steps" in detail.inner_text()
        traceback = page.locator("#detail .ending pre.traceback").inner_text()
        assert "KeyError" in traceback and "plan_for_step_7" in traceback
        assert "infrastructure" not in detail.inner_text()
        page.screenshot(path=str(SHOTS / "viewer-harness-crash.png"), full_page=True)

        page.goto((out / "index.html").as_uri() + f"#trial=a:{ids['own']}")
        page.wait_for_selector("#detail .step")
        assert page.locator("#detail details.task pre").inner_text().strip()
        assert "steps (2)" in detail.inner_text()
        assert page.locator("#detail .step").count() == 2
        assert page.locator("#detail .step .call").first.locator(".cmd").inner_text().startswith("shell ls")
        assert "First I look at the files." in page.locator("#detail .step .msg").first.inner_text()
        assert page.locator("#detail .step .note").count() == 2
        problems = page.locator("#detail .problems").inner_text()
        assert "invalid_event" in problems and "call.id" in problems
        page.screenshot(path=str(SHOTS / "viewer-harness-own-events.png"), full_page=True)
        assert errors == []
        browser.close()


def test_a_malformed_event_is_flagged_as_it_is_written_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with TrajectoryLog(path) as log:
        log.write("model", step=1, message={"content": "hi", "tool_calls": [{"function": {"name": "bash"}}]})
        log.write("tool", step=0, call={"id": "c"}, output=3)
        log.write("submit", step=1)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["event"] for x in lines] == ["model", "invalid_event", "tool", "invalid_event", "submit"]
    assert lines[1] | {"t": None} == {"t": None, "event": "invalid_event", "of": "model", "step": 1,
                                      "field": "message.tool_calls.0.id",
                                      "error": "message.tool_calls.0.id: Field required"}
    assert lines[3]["field"] == "step" and "call.function: Field required" in lines[3]["error"] \
        and "output: Input should be a valid string" in lines[3]["error"]
    assert event_problems(lines[4]) == [] and event_problems({"event": ""}) == [
        ("event", "every line names its event: a non-empty string")]


def test_a_command_harness_proxy_trajectory_becomes_steps_with_outputs(tmp_path: Path) -> None:
    """The proxy's model events (request + response, the message and usage taken from it): the outputs of the
    agent's tool calls come from the tool messages of its next request; the command's exit ends the trial."""
    call = {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
    reply = {"role": "assistant", "content": "looking", "tool_calls": [call]}
    path = tmp_path / "t.jsonl"
    start_trajectory(path, case="c", instruction="do it", harness="command", variant="v", model="m", seed=1)
    with TrajectoryLog(path) as log:
        log.write("start", case="c", model="m", seed=1, harness="command", run="agent --go")
        log.write("model", step=1, message=reply, usage={"input_tokens": 5, "output_tokens": 2},
                  request={"messages": [{"role": "user", "content": "do it"}]}, response={"choices": []})
        log.write("model", step=2, message={"role": "assistant", "content": "done"},
                  request={"messages": [{"role": "user", "content": "do it"}, reply,
                                        {"role": "tool", "tool_call_id": "call_1", "content": "a.py\n"}]})
        log.write("command_end", exit_code=0, timed_out=False, seconds=1.5, stdout="bye", stderr="")
    found = read_trajectory(path)
    assert found["problems"] == []
    assert [s["text"] for s in found["steps"]] == ["looking", "done"]
    assert found["steps"][0]["calls"][0]["output"] == "a.py\n"
    assert found["instruction"] == "do it"
    assert found["ending"][0]["text"] == "the agent command exited with code 0" and "bye" in found["ending"][0]["long"]
