"""A trial's trajectory: one JSON line per event of its agent phase, and the schema of those events.

The events are what the viewer draws (docs/plugins/harness.md "Trajectory events"): nightshift's ``trial``
line first (the case, its instruction, the harness), then the harness's own — ``start``, ``model``, ``tool``,
``submit``, ``note`` — and how the agent phase ended (``agent_error`` with its traceback, ``infra_error``,
a limit). Any event may carry more fields than its model names (kept, not drawn), and a harness may write
events of its own names (drawn as written, in their step).

Every line is checked against its model as it is written (``TrajectoryLog.write``, ``append_event``): a
line that does not fit is still written as given, followed by an ``invalid_event`` line naming the field
and what is wrong, so a harness's author reads why its steps render empty instead of guessing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")  # a harness may add fields of its own: kept, not drawn


class ToolFunction(_Open):
    name: str = Field(description="The tool's name (``bash``, ``submit``, a tool of your own).")
    arguments: str | dict[str, Any] = Field("", description="Its arguments, a JSON string as the model sent them "
                                                             "(or a dict).")


class ToolCall(_Open):
    """One tool call, as in an OpenAI assistant message's ``tool_calls``."""

    id: str = Field(description="Pairs the call with its output: the ``tool`` event's ``call.id``.")
    type: str = "function"
    function: ToolFunction


class ChatMessage(_Open):
    role: str = Field(description="``system``, ``user``, ``assistant`` or ``tool``; ``user`` text is shown as "
                                  "the instruction when no ``trial`` line gives one.")
    content: str | list[Any] | None = None


class AssistantMessage(_Open):
    role: str = "assistant"
    content: str | list[Any] | None = Field(None, description="The model's text: the step's message.")
    tool_calls: list[ToolCall] = Field([], description="The calls this step made; each is drawn as a box.")


class TokenUsage(_Open):
    input_tokens: int = 0
    output_tokens: int = 0


class _Event(_Open):
    t: float | None = Field(None, description="Seconds since the log was opened; null on lines nightshift adds.")


class _StepEvent(_Event):
    step: int = Field(ge=1, description="The step (model turn) it belongs to, from 1.")


class TrialEvent(_Event):
    """nightshift's first line of every trajectory, written before the harness starts."""

    event: Literal["trial"]
    case: str
    instruction: str = Field(description="The case's instruction: always shown above the steps.")
    harness: str = Field(description="The harness kind: reference, python, command or installed.")
    variant: str
    model: str
    seed: int


class StartEvent(_Event):
    event: Literal["start"]
    messages: list[ChatMessage] = Field([], description="The chat messages the agent starts with (the prompt).")


class ModelEvent(_StepEvent):
    """One model call: a step."""

    event: Literal["model"]
    message: AssistantMessage = Field(description="The assistant message, as ``model.chat`` returned it.")
    seconds: float | None = None
    usage: TokenUsage | None = None
    served_by: str | None = None


class ToolEvent(_StepEvent):
    """One tool call's output, drawn under the call of ``message.tool_calls`` with the same id (or on its own)."""

    event: Literal["tool"]
    call: ToolCall
    output: str
    seconds: float | None = None


class SubmitEvent(_StepEvent):
    event: Literal["submit"]


class NoteEvent(_Event):
    """Free text of the harness's own (a plan, a retry, a decision), drawn in its step or after the steps."""

    event: Literal["note"]
    text: str
    step: int | None = Field(None, ge=1)


class ErrorEvent(_Event):
    """The agent phase ended in an error: the harness's (``agent_error``, with its traceback) or not
    (``infra_error``). nightshift writes these; a harness need not."""

    event: Literal["agent_error", "infra_error"]
    error: str
    traceback: str | None = None
    step: int | None = Field(None, ge=1)


class LimitEvent(_Event):
    event: Literal["step_limit", "timeout", "token_limit", "cost_limit"]
    reason: str = ""
    step: int | None = Field(None, ge=1)


class CommandEndEvent(_Event):
    """A command harness's agent exited: its exit code and the tails of its output."""

    event: Literal["command_end"]
    exit_code: int
    timed_out: bool = False
    seconds: float | None = None
    stdout: str = ""
    stderr: str = ""


class ProxyEvent(_Event):
    """The command harness's model proxy refused a request, or the endpoint rejected it."""

    event: Literal["proxy_refused", "model_rejected"]
    message: str = ""
    error: str = ""
    step: int | None = None


class InvalidEvent(_Event):
    """Written by nightshift right after a line that does not fit its event's model."""

    event: Literal["invalid_event"]
    of: str = Field(description="The event named by the line that did not fit.")
    field: str = Field(description="The first field at fault, dotted (``call.id``, ``message.tool_calls.0.id``).")
    error: str = Field(description="Every problem of the line, one ``field: what`` each.")
    step: int | None = None


TrajectoryEvent = Annotated[
    TrialEvent | StartEvent | ModelEvent | ToolEvent | SubmitEvent | NoteEvent | ErrorEvent | LimitEvent
    | CommandEndEvent | ProxyEvent | InvalidEvent, Field(discriminator="event")]
"""Any line of a trajectory, told apart by its ``event``."""

_ADAPTER: TypeAdapter[Any] = TypeAdapter(TrajectoryEvent)
EVENT_NAMES = tuple(name for model in TrajectoryEvent.__origin__.__args__  # type: ignore[attr-defined]
                    for name in model.model_fields["event"].annotation.__args__)


def event_problems(record: object) -> list[tuple[str, str]]:
    """(field, what is wrong) for each way a line does not fit its event's model; empty when it fits."""
    if not isinstance(record, dict):
        return [("", f"an event is a JSON object, not {type(record).__name__}")]
    name = record.get("event")
    if not isinstance(name, str) or not name:
        return [("event", "every line names its event: a non-empty string")]
    if name not in EVENT_NAMES:
        return []  # an event of the harness's own (a plan, a thought): kept and drawn as written
    try:
        _ADAPTER.validate_python(record)
    except ValidationError as exc:
        return [(".".join(str(part) for part in error["loc"][1:]), error["msg"]) for error in exc.errors()]
    return []


def invalid_note(record: object) -> dict[str, Any] | None:
    """The ``invalid_event`` line that follows a line which does not fit; None when it fits."""
    found = event_problems(record)
    if not found:
        return None
    of = str(record.get("event")) if isinstance(record, dict) else ""
    error = "; ".join(f"{field or '(line)'}: {what}" for field, what in found)
    note: dict[str, Any] = {"t": None, "event": "invalid_event", "of": of, "field": found[0][0], "error": error}
    step = record.get("step") if isinstance(record, dict) else None
    return note | ({"step": step} if isinstance(step, int) else {})


def _lines(record: dict[str, Any]) -> str:
    text = json.dumps(record, default=str)  # values JSON cannot hold are written as str
    note = invalid_note(json.loads(text))
    return text + "\n" + (json.dumps(note) + "\n" if note else "")


class TrajectoryLog:
    """A trial's trajectory file, written one event at a time: ``write("model", step=1, message=...)``.

    It appends to the file nightshift started for the trial (its ``trial`` line); each line is checked as it
    is written (``invalid_event`` after one that does not fit)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("a")
        self._t0 = time.monotonic()

    def write(self, event: str, **fields: Any) -> None:
        self._file.write(_lines({"t": round(time.monotonic() - self._t0, 4), "event": event, **fields}))
        self._file.flush()

    def __enter__(self) -> TrajectoryLog:
        return self

    def __exit__(self, exc_type: type | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._file.close()


def append_event(path: Path, event: str, **fields: Any) -> None:
    """One more line in a trial's trajectory, checked like the harness's own (``"t": null``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(_lines({"t": None, "event": event, **fields}))


def start_trajectory(path: Path, **fields: Any) -> None:
    """Start a trial's trajectory afresh with its ``trial`` line (a retried trial starts a new file). The old
    file is unlinked, not truncated: a later run may hold it as a hard link (tasks/artifacts.py)."""
    path.unlink(missing_ok=True)
    append_event(path, "trial", **fields)


def first_event(path: Path) -> dict[str, Any] | None:
    """The trajectory's first line, parsed; None when there is none or it is not JSON."""
    try:
        with path.open() as handle:
            first = json.loads(handle.readline())
            return first if isinstance(first, dict) else None
    except (OSError, ValueError):
        return None
