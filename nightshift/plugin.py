"""The one import a nightshift plugin needs: ``from nightshift.plugin import ...``.

Every extension point, what it is given, what it returns and what it may raise (a page each in docs/plugins/):

* **Harness** (docs/plugins/harness.md) — the agent under evaluation. A class with a pydantic ``Settings`` model,
  built per trial as ``Harness(model, settings)``; ``run(case, sandbox, model, seed, trajectory_path)`` returns
  an ``AgentOutcome``. ``sandbox`` is a ``Sandbox`` (``exec``, ``read_file``, ``write_file``), ``model`` a
  ``ModelClient`` (``chat(model=, messages=, tools=, temperature=, seed=, max_tokens=)``: every argument
  required), ``trajectory_path`` the file to write its steps to with ``TrajectoryLog``: each line one of the
  ``TrajectoryEvent`` models (``start`` with ``messages``, ``model`` with a ``message``, ``tool`` with a ``call``
  whose ``id`` pairs it with the message's tool call, ``submit``, ``note``), checked as it is written (a line
  that does not fit is followed by an ``invalid_event`` line naming the field; ``event_problems`` checks one
  without writing it). It may raise
  ``LimitReached``; the model client raises ``RequestRejected`` (the request itself was refused: agent_error)
  and ``GatewayError`` (the endpoint failed: infra_error). ``TOOL_SCHEMAS`` and ``render_observation`` are the
  reference loop's bash/submit tools. Named in an experiment as ``harness: {kind: python, entrypoint:
  module:Class}`` or by an entry point in the ``nightshift.harnesses`` group.
* **Metric** (docs/plugins/metric.md) — a named score per trial. Subclass ``Metric`` (its fields are settings),
  implement ``__call__(self, trial: TrialFacts)`` returning a ``MetricResult``, a number, a bool or None.
  Named in suite.toml's or the experiment's ``metrics:`` as ``use: module:Class`` or an entry point in
  ``nightshift.metrics``.
* **Scanner** (docs/SCANNERS.md) — reads one finished trial and says how it won. Subclass ``Scanner`` (its fields
  are settings), implement ``__call__(self, trial: TrialRecord)`` returning a list of ``Flag`` (name, severity
  ``info``/``suspect``/``cheat``, explanation, and the evidence: ``step`` + ``line`` from ``trial.commands`` or
  ``path`` + ``line`` from ``trial.changes``, the parsed workspace diff). Deterministic and read-only: ``nightshift
  scan RUN`` re-runs it over a finished run's files. Named in the experiment's ``scanners:`` as ``use:
  module:Class`` or an entry point in ``nightshift.scanners``.
* **Suite importer** (docs/plugins/importer.md) — ``SuiteImporter(write, source, summary, options)`` whose
  ``write(source, out, name, **options)`` writes a suite folder of ``Case`` folders; raises ``SuiteError``.
  Run by ``nightshift import-suite NAME``; entry point group ``nightshift.importers``.
* **Sandbox backend** (docs/plugins/sandbox.md) — a ``SandboxBackend`` class built as ``Backend(image)``, whose
  ``create(SandboxSpec)`` returns a ``Sandbox`` honouring ``SandboxLimits``; ``exec`` never raises for what a
  command contains, only ``SandboxError`` when the sandbox itself is broken. Named by ``sandbox.backend``;
  entry point group ``nightshift.sandboxes``.

* **Installed agent** (docs/HARNESSES.md, "The catalogue of installed agents") — an ``AgentEntry``: how an
  agent CLI is installed at pinned versions, run headless, which wire protocol it speaks and where its log is;
  ``harness: {kind: installed, name, version}`` runs it. Added in the experiment's ``agents:`` block (the same
  fields, in YAML), or as an ``AgentEntry`` (or a dict of its fields) named by an entry point in
  ``nightshift.agents``. Its ``mapper`` is ``map(text) -> list[dict]`` of trajectory events.

Errors: every error nightshift raises is a ``NightshiftError``; a plugin raises the family that says whose
problem it is (``ConfigurationError`` for its settings, ``SuiteError``, ``SandboxError``, ...). Anything here
is stable for plugins; every other module of nightshift may change.
"""

from __future__ import annotations

from nightshift.agent_entry import AgentEntry
from nightshift.contracts import (
    Grader,
    Harness,
    ModelClient,
    Sandbox,
    SandboxBackend,
    SandboxLimits,
    SandboxSpec,
    SuiteImporter,
)
from nightshift.diffs import FileChange
from nightshift.errors import (
    ConfigurationError,
    EndpointError,
    GatewayError,
    HarnessError,
    InfrastructureError,
    LimitReached,
    NightshiftError,
    OrchestrationError,
    RequestRejected,
    SandboxError,
    StorageError,
    SuiteError,
)
from nightshift.metrics import Metric, MetricResult, TrialFacts
from nightshift.models import (
    SEVERITIES,
    AgentOutcome,
    Case,
    CaseLimits,
    Checkpoint,
    ExecResult,
    Flag,
    GradeResult,
    HiddenTests,
    Severity,
    TestOutcome,
    TrialResult,
    TrialStatus,
)
from nightshift.resources import project_dir
from nightshift.scanners import Command, Scanner, TrialRecord
from nightshift.tools import TOOL_SCHEMAS, render_observation
from nightshift.trajectory import (
    AssistantMessage,
    ChatMessage,
    CommandEndEvent,
    ErrorEvent,
    InvalidEvent,
    LimitEvent,
    ModelEvent,
    NoteEvent,
    StartEvent,
    SubmitEvent,
    TokenUsage,
    ToolCall,
    ToolEvent,
    ToolFunction,
    TrajectoryEvent,
    TrajectoryLog,
    TrialEvent,
    event_problems,
)

__all__ = [
    # harness
    "Harness", "ModelClient", "Sandbox", "AgentOutcome", "Case", "CaseLimits", "ExecResult", "TrajectoryLog",
    "TOOL_SCHEMAS", "render_observation", "LimitReached", "RequestRejected", "GatewayError",
    # trajectory events (what the viewer draws; docs/plugins/harness.md "Trajectory events")
    "TrajectoryEvent", "TrialEvent", "StartEvent", "ModelEvent", "ToolEvent", "SubmitEvent", "NoteEvent", "ErrorEvent",
    "LimitEvent", "CommandEndEvent", "InvalidEvent", "AssistantMessage", "ChatMessage", "ToolCall", "ToolFunction",
    "TokenUsage", "event_problems",
    # metric
    "Metric", "MetricResult", "TrialFacts", "GradeResult", "TestOutcome", "Checkpoint", "HiddenTests",
    # scanner
    "Scanner", "TrialRecord", "Flag", "Command", "FileChange", "Severity", "SEVERITIES",
    "project_dir",  # where a plugin's relative file settings (a judge's rubric) are read from
    # suite importer
    "SuiteImporter", "SuiteError",
    # sandbox backend
    "SandboxBackend", "SandboxSpec", "SandboxLimits", "SandboxError",
    # grading and results
    "Grader", "TrialResult", "TrialStatus",
    # installed agent
    "AgentEntry",
    # errors
    "NightshiftError", "ConfigurationError", "HarnessError", "StorageError", "InfrastructureError", "EndpointError",
    "OrchestrationError",
]
