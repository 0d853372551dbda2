"""What a trial's Prefect task run says about its outcome: a state name, a run name with the status, one log line.

The outcome goes into the state name (run_trial returns a state named for it: ``resolved``, ``failed``,
``step_limit``, ``infra_error`` ...) and into the task run's name (``case/variant/seedN: status``), which
the UI's task-run search filters on. No tags: Prefect 3.9 treats every task-run tag as a possible tag
concurrency limit and acquires a leased slot per tagged run; with 160 trials at once that made the
server answer 503 and trials crash in the night benchmark. Everything here is best effort: the UI
never decides a result.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import httpx
from prefect.client.orchestration import get_client
from prefect.context import TaskRunContext

from nightshift.experiment.trials import TrialSpec
from nightshift.models import TrialResult, TrialStatus

if TYPE_CHECKING:  # the flows hand it down; tasks/ sit below flows/ and import nothing of them at run time
    from nightshift.flows.publishing import Publisher

_log = logging.getLogger(__name__)


def outcome_line(row: TrialResult, case_label: str | None = None) -> str:
    """One line a user can read in the UI's log tab: outcome, score, steps, tokens, duration (and why, for a public
    case). ``case_label``: what to call the case (a protected case's opaque id); default its id."""
    tokens = row.input_tokens + row.output_tokens
    line = (f"{row.status.value}: {case_label or row.case_id}/{row.variant}/seed{row.seed} score {row.score:g}, "
            f"progress {row.progress:.0%}, {row.steps} steps, {tokens:,} tokens "
            f"({row.input_tokens:,} in / {row.output_tokens:,} out), {row.duration_s:.1f} s")
    if row.cost_usd:
        line += f", ${row.cost_usd:.4f}"
    if row.reason and row.split == "public":
        line += f" — {row.reason[:200]}"
    return line


def name_task_run(spec: TrialSpec, status: TrialStatus, publisher: Publisher | None = None) -> None:
    """Append the status to this task run's name (searchable in the UI); silent without a Prefect run.
    With the night's ``publisher`` the call has its deadline (a server gone away cost every trial the
    client's five retries, about a minute, before)."""

    ctx = TaskRunContext.get()
    if ctx is None or ctx.task_run is None:
        return
    name = f"{spec.case.label}/{spec.variant.name}/seed{spec.seed}: {status}"

    def rename() -> None:
        with get_client(sync_client=True) as client:
            try:
                client.set_task_run_name(ctx.task_run.id, name)
            except httpx.HTTPStatusError as exc:
                # 404: the server has not recorded this task run yet (its task-run recorder writes the rows from
                # the event stream, in batches, and may run behind a large night). The API is up: this must not
                # trip the publisher's breaker, which would skip the night's artifacts with it.
                if exc.response.status_code != 404:
                    raise

    if publisher is not None:
        publisher.call("task run name", rename)
        return
    try:
        rename()
    except Exception as exc:  # noqa: BLE001 - a name is a convenience; the row is already written
        _log.debug("could not rename the task run: %s", exc)
