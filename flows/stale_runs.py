"""Hold a run's lock for the length of a night, and make the UI tell the truth about the run before it.

A flow run killed with its process stays "Running" in Prefect for ever, and so does one that finished
while the API was unreachable. The run lock (flows/run_lock.py) names the flow run that held it: a night
that could not reach the API leaves the record behind with ``ended`` set; a killed one leaves it as it
was. The next night of the same run id sets that flow run to Completed (it finished, its files are
written) or Crashed (its process died) through the API — best-effort, like every other UI update.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import UUID

from prefect import get_run_logger
from prefect.client.orchestration import get_client
from prefect.client.schemas.objects import State, StateType
from prefect.context import FlowRunContext
from prefect.states import Completed, Crashed

from nightshift.flows.publishing import Publisher
from nightshift.flows.run_lock import RunLock, acquire, describe

UNFINISHED = {StateType.RUNNING, StateType.PENDING, StateType.SCHEDULED, StateType.PAUSED, StateType.CANCELLING}


def settle_flow_run(flow_run_id: str, message: str, completed: bool = False) -> bool:
    """Set a flow run left unfinished to Crashed (or Completed); True when it was changed."""
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(UUID(flow_run_id))
        if run.state is None or run.state.type not in UNFINISHED:
            return False
        state: State = Completed(message=message) if completed else Crashed(message=message)
        client.set_flow_run_state(UUID(flow_run_id), state, force=True)
        return True


def current_flow_run_id() -> str | None:
    ctx = FlowRunContext.get()
    return str(ctx.flow_run.id) if ctx and ctx.flow_run else None


@contextmanager
def hold_run(run_dir: Path, publisher: Publisher) -> Iterator[RunLock]:
    """The run's lock for the block (RunLocked if a live process holds it); a dead owner's run is Crashed."""
    me = current_flow_run_id()
    lock = acquire(run_dir, flow_run_id=me)
    finished = False
    try:
        settle_previous(lock.previous, me, publisher)
        yield lock
        finished = True
    finally:
        # the API went away: Prefect may never hear how this flow run ended; leave that for the next night
        note = {"ended": "completed" if finished else "failed"} if publisher.unreachable and me else None
        lock.release(note)


def settle_previous(previous: dict | None, me: str | None, publisher: Publisher) -> None:
    """Tell Prefect how the previous owner's flow run ended, if it could not."""
    if not previous:
        return
    logger = get_run_logger()
    ended = previous.get("ended")
    if not ended:
        logger.warning("took over the run lock of %s, which died without releasing it", describe(previous))
    stale = previous.get("flow_run_id")
    if not stale or stale == me:  # a UI Retry re-runs the same flow run: never settle ourselves
        return
    if ended:
        message, completed = (f"finished while the Prefect API was unreachable ({describe(previous)}); state "
                              f"reported by flow run {me}", ended == "completed")
    else:
        message, completed = f"its process ({describe(previous)}) died; the run was resumed by flow run {me}", False
    if publisher.call("settle stale flow run", settle_flow_run, stale, message, completed):
        logger.warning("flow run %s was still unfinished in Prefect: set to %s", stale,
                       "Completed" if completed else "Crashed")
