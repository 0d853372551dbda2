"""Every error nightshift raises on purpose, in one hierarchy: ``NightshiftError`` and a few families.

A family says whose problem it is and how the CLI ends (``exit_code``): the person's input (2), the run's
files (3), or the infrastructure a night runs on (4). Messages name the file, the field and the fix; the CLI
prints the message as one line and exits with the family's code, never a traceback (nightshift.cli). One more
exit status is not an error: 5, a broken arm (``BROKEN_ARM_EXIT_CODE``).

Concrete errors live with the part that raises them (``ExperimentError`` in experiment/, ``DiskFull`` in
tasks/, ...) and subclass a family here; they keep their old builtin base too (``ValueError``,
``RuntimeError``), so code that caught those still does. This module imports nothing of nightshift.
"""

from __future__ import annotations

BROKEN_ARM_EXIT_CODE = 5
"""Not an error: `nightshift run`, `compare` or `report` finished and wrote everything, but an arm's trials mostly
ended in agent_error or infra_error (a broken arm, analysis/broken.py), so its scores are no result."""


class NightshiftError(Exception):
    """Anything nightshift refuses or cannot do, phrased for the person who ran it."""

    exit_code = 1


class ConfigurationError(NightshiftError):
    """An experiment file, a plugin's name or settings, a command's arguments: fix the input and run again."""

    exit_code = 2


class SuiteError(NightshiftError, ValueError):
    """A suite or case folder that cannot be loaded, imported or validated as written."""

    exit_code = 2


class HarnessError(ConfigurationError, ValueError):
    """A harness that cannot be used as written; ``field`` is the path under the variant's ``harness``."""

    def __init__(self, field_path: str, message: str):
        super().__init__(message)
        self.field = field_path


class StorageError(NightshiftError):
    """A run folder, its rows or its disk: what is on disk (or missing, or locked) stops the command."""

    exit_code = 3


class InfrastructureError(NightshiftError):
    """What a night runs on failed: a sandbox, the model endpoint, the Prefect server or a work pool."""

    exit_code = 4


class SandboxError(InfrastructureError, RuntimeError):
    """A sandbox backend, its image or the host's isolation cannot do what was asked."""


class EndpointError(InfrastructureError, RuntimeError):
    """The model endpoint failed after retries (infra_error), or refused a request outright."""


class GatewayError(EndpointError):
    """The endpoint could not serve a call after every retry: an infrastructure failure, not the agent's."""


class RequestRejected(GatewayError):
    """The request itself cannot be served — too large for the key's tokens/min, or refused by the endpoint
    as invalid (400/422): the sender's doing, not the endpoint's, so never an infra_error of the trial."""


class OrchestrationError(InfrastructureError, RuntimeError):
    """The Prefect server, a work pool, a worker image or a shard."""


class LimitReached(NightshiftError):  # noqa: N818 - an outcome of the trial, not a failure of nightshift
    """A trial limit was reached; ``status`` is the trial status it ends with (step_limit, token_limit, ...).

    A harness may raise it (or let the model client's raise through): the trial ends with that status."""

    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


FAMILIES: tuple[type[NightshiftError], ...] = (ConfigurationError, SuiteError, StorageError, SandboxError,
                                               EndpointError, OrchestrationError)
