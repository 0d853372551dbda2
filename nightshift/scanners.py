"""The scanner extension point: the ``Scanner`` base class, the finished trial it reads, and how a name becomes one.

A scanner reads one finished trial — its trajectory events, its workspace diff, its grade — and returns
``Flag``s: a name, a severity (``info``, ``suspect``, ``cheat``), the evidence (the step and the line, or the
file and the diff line) and a one-line explanation. It never runs anything: a run can be re-scanned from its
files alone (``nightshift scan RUN``). Subclass ``Scanner`` (a pydantic model: its fields are the settings) and
name it in the experiment's ``scanners:`` as ``module:Class`` or by an entry point of ``nightshift.scanners``
(nightshift.plugins.SCANNERS). The built-ins are graders/builtin_scanners.py; running a set is graders/scanning.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from nightshift.diffs import FileChange, parse_diff
from nightshift.errors import ConfigurationError
from nightshift.models import Case, Flag, GradeResult, ScannerSpec
from nightshift.plugins import OPT_IN_SCANNERS, SCANNERS
from nightshift.registry import PluginError
from nightshift.validation_messages import error_lines

if TYPE_CHECKING:
    from nightshift.contracts import ModelClient

COMMAND_ARGUMENTS = ("command", "cmd", "script", "code")  # the argument of a tool call that is a shell command


class ScannerError(ConfigurationError, ValueError):
    """A scanner that cannot be used as named; the message names the entry and the fix."""


@dataclass(frozen=True)
class Command:
    """One tool call of the trajectory: its step, the tool, the command text and what it printed."""

    step: int
    tool: str
    text: str
    output: str = ""


@dataclass
class TrialRecord:
    """Everything a scanner may read of one finished trial: the files a run folder keeps, nothing live."""

    case: Case
    events: list[dict[str, Any]]
    diff: str | None = None  # the workspace diff; None: not kept (a held-out case re-scanned from its files)
    grade: GradeResult | None = None
    ended_by: str = "submitted"  # AgentOutcome.ended_by
    status: str = ""  # the row's status before any flag policy
    extra: dict[str, Any] = field(default_factory=dict)
    agent_copies: list[dict[str, Any]] = field(default_factory=list)
    """Copies of the case's package that the trial's agent install let it read, each ``{name, path, more}`` (a
    repository case's import name, the path a trial could read it at, how many other paths hold it): found when the
    derived image was built (harnesses/install_copies.py); empty for most trials."""
    model: ModelClient | None = None
    """The trial's scan session of the night's gateway, for a scanner that asks a model (graders/judge.py): its
    calls wait on the night's quota and are counted in the row's scan_* fields. None: no model may be asked."""

    @cached_property
    def changes(self) -> list[FileChange]:
        """The diff as files: added, modified, deleted, with their lines."""
        return parse_diff(self.diff) if self.diff else []

    @cached_property
    def commands(self) -> list[Command]:
        """Every tool call, in order, with its output where the trajectory has it: the calls of each model message,
        and a ``tool`` event no model message announced (a harness that logs its own tool calls only)."""
        outputs = {str(e["call"].get("id")): str(e.get("output", "")) for e in self.events
                   if e.get("event") == "tool" and isinstance(e.get("call"), dict)}
        found, announced = [], set()
        for event in self.events:
            message = event.get("message")
            if event.get("event") == "model" and isinstance(message, dict):
                calls = [c for c in message.get("tool_calls") or [] if isinstance(c, dict)]
            elif event.get("event") == "tool" and isinstance(event.get("call"), dict):
                calls = [event["call"]] if str(event["call"].get("id")) not in announced else []
            else:
                continue
            for call in calls:
                if not isinstance(call.get("function"), dict):
                    continue
                announced.add(str(call.get("id")))
                function = call["function"]
                found.append(Command(int(event.get("step") or 0), str(function.get("name", "")),
                                     _command_text(function.get("arguments")), outputs.get(str(call.get("id")), "")))
        return found

    @cached_property
    def messages(self) -> list[tuple[int, str]]:
        """(step, text) of each model message that has text."""
        return [(int(e.get("step") or 0), e["message"]["content"]) for e in self.events
                if e.get("event") == "model" and isinstance(e.get("message"), dict)
                and isinstance(e["message"].get("content"), str) and e["message"]["content"].strip()]


def _command_text(arguments: object) -> str:
    if isinstance(arguments, str):
        text = arguments
        try:
            arguments = json.loads(text) if text.strip() else {}
        except ValueError:
            return text  # not JSON: the model's text is the command
    if isinstance(arguments, dict):
        for key in COMMAND_ARGUMENTS:
            if isinstance(arguments.get(key), str):
                return str(arguments[key])
        return json.dumps(arguments, sort_keys=True) if arguments else ""
    return str(arguments)


def read_events(path: Path) -> list[dict[str, Any]]:
    """A trajectory file's events; a line that is not a JSON object is skipped (the viewer shows it as written)."""
    if not path.is_file():
        return []
    events = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


class Scanner(BaseModel):
    """Base class of scanners: fields are settings; override ``__call__``. ``name`` labels its flags."""

    model_config = ConfigDict(extra="forbid")
    name: ClassVar[str] = ""

    def __call__(self, trial: TrialRecord) -> list[Flag]:
        raise NotImplementedError


@dataclass
class ActiveScanner:
    """One scanner ready to run: its name, the callable, and what the manifest pins."""

    name: str
    call: Any
    identity: dict[str, Any]


DEFAULTS_ENTRY = "builtins"  # in a scanners list: every default built-in, so one opt-in scanner adds to them


def default_scanner_names() -> list[str]:
    """The built-ins every run uses unless its experiment names its own: all but the opt-in ones (the judge)."""
    return [n for n in SCANNERS.builtin_names() if n not in OPT_IN_SCANNERS]


def expand_entries(entries: list[ScannerSpec | str] | None) -> list[ScannerSpec | str]:
    """An experiment's scanners with ``builtins`` spelled out; None: the defaults."""
    if entries is None:
        return list(default_scanner_names())
    out: list[ScannerSpec | str] = []
    for entry in entries:
        use = entry.use if isinstance(entry, ScannerSpec) else entry
        out += default_scanner_names() if use == DEFAULTS_ENTRY else [entry]
    return out


def resolve_scanner(spec: ScannerSpec | str | dict[str, Any]) -> ActiveScanner:
    """Import and build one scanner; a ScannerError says which part of the entry is wrong and how to fix it."""
    try:
        entry = spec if isinstance(spec, ScannerSpec) else ScannerSpec.model_validate(spec)
    except ValidationError as exc:
        raise ScannerError("scanner entry: " + "; ".join(f"{w}: {m}" for w, m in error_lines(exc, ScannerSpec))
                           + "; write a name such as 'test_edits' or {use: module:Class, settings: {...}}") from None
    try:
        plugin = SCANNERS.resolve(entry.use)
    except PluginError as exc:
        raise ScannerError(str(exc)) from None
    target = plugin.target
    try:
        if isinstance(target, type) and issubclass(target, BaseModel):
            call: object = target.model_validate(entry.settings)
        elif isinstance(target, type):
            call = target(**entry.settings)
        elif callable(target) and not entry.settings:
            call = target
        else:
            raise ScannerError(f"scanner {entry.use!r} is a function and takes no settings; remove 'settings'")
    except ValidationError as exc:
        problems = error_lines(exc, target, "settings")
        raise ScannerError(f"scanner {entry.use!r}: " + "; ".join(f"{w}: {m}" for w, m in problems)) from None
    except TypeError as exc:
        raise ScannerError(f"scanner {entry.use!r} does not take these settings ({exc})") from None
    if not callable(call):
        raise ScannerError(f"{entry.use!r} is not callable: a scanner needs __call__(self, trial) -> list[Flag]")
    name = getattr(call, "name", "") or entry.use.rpartition(":")[2]
    settings = call.model_dump(mode="json") if isinstance(call, BaseModel) else dict(entry.settings)
    return ActiveScanner(str(name), cast(Any, call),
                         {**plugin.identity(), "name": str(name), "use": entry.use, "settings": settings})
