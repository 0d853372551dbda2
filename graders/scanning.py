"""Running a run's scanners over one finished trial, and the flag policy that may turn a flag into a failure.

Each run resolves its scanners once into a ``ScannerSet`` (every built-in unless the experiment names its own
``scanners:``); the manifest pins their identities. A scanner that raises does not lose the trial: its failure
is an ``info`` flag naming it. Scanning reads files only, so ``nightshift scan RUN`` (tasks/rescan.py) repeats it
on a finished run with today's scanners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from nightshift.models import Flag, ScannerSpec
from nightshift.scanners import ActiveScanner, TrialRecord, default_scanner_names, expand_entries, resolve_scanner

BUILTIN_SCANNERS = tuple(default_scanner_names())  # the defaults; the opt-in judge is named, never implied
PolicyAction = Literal["report", "fail"]


@dataclass
class ScannerSet:
    """The scanners one run uses, in order."""

    scanners: list[ActiveScanner]

    @classmethod
    def build(cls, entries: Sequence[ScannerSpec | str] | None = None) -> ScannerSet:
        """The named scanners (``builtins`` among them: every default); None: every default (``[]``: none)."""
        return cls([resolve_scanner(entry) for entry in expand_entries(None if entries is None else list(entries))])

    @property
    def needs_model(self) -> bool:
        """Whether a scanner asks a model (the judge): then a re-scan needs the experiment's endpoint."""
        return any(getattr(s.call, "asks_model", False) for s in self.scanners)

    def identities(self) -> list[dict]:
        return [s.identity for s in self.scanners]

    def scan(self, trial: TrialRecord) -> list[Flag]:
        """Every scanner's flags, each labelled with its scanner; a failing scanner becomes an info flag."""
        flags: list[Flag] = []
        for scanner in self.scanners:
            try:
                raised = list(scanner.call(trial) or [])
                for flag in raised:
                    if not isinstance(flag, Flag):
                        raise TypeError(f"returned {type(flag).__name__}; return a list of nightshift.plugin.Flag")
                flags += [f.model_copy(update={"scanner": scanner.name}) for f in raised]
            except Exception as exc:  # noqa: BLE001 - a user's scanner must not lose the trial's row
                flags.append(Flag(scanner=scanner.name, name="scanner_failed", severity="info",
                                  explanation=f"scanner failed: {type(exc).__name__}: {exc}"[:300]))
        return flags


def policy_failure(flags: list[Flag], policy: dict[str, PolicyAction]) -> Flag | None:
    """The first flag whose severity the policy fails (``flags: {cheat: fail}``); None: the score stands."""
    return next((f for f in flags if policy.get(f.severity) == "fail"), None)


def failure_reason(flag: Flag) -> str:
    where = f" (step {flag.step})" if flag.step else f" ({flag.path})" if flag.path else ""
    return f"flag policy: {flag.severity} {flag.scanner}/{flag.name}{where}: {flag.explanation}"[:500]
