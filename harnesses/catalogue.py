"""The catalogue of installed agents: `harness: {kind: installed, name: NAME, version: V}` (docs/HARNESSES.md).

An entry (nightshift.agent_entry.AgentEntry) says how to install an agent CLI at a pinned
version into a derived image, how to run it headless, which wire protocol it speaks, what it needs in a
sandbox and where its own log is. Entries are plugins of the `agents` extension point
(nightshift.plugins.AGENTS): the built-ins (harnesses/agent_catalogue.py), a package's `nightshift.agents`
entry point, or `module:attr`; an experiment's own `agents:` block adds or overrides one by name.

A resolved entry becomes a `command` harness (harnesses/command_harness.py) with the entry's install
lines (plus the variant's extra ones), run line and env (the variant's env over the entry's), so it is
built, keyed, limited and proxied exactly like a hand-written one, and then its log is collected and mapped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from nightshift.agent_entry import AgentEntry
from nightshift.errors import HarnessError
from nightshift.experiment.config import HarnessSpec
from nightshift.plugins import AGENTS
from nightshift.registry import PluginError, load_object
from nightshift.validation_messages import did_you_mean


class LogMapper(Protocol):
    def __call__(self, text: str) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class InstalledAgent:
    """What the command harness needs beyond install/run/env: where the log is and how to map it."""

    entry: AgentEntry
    version: str
    mapper: LogMapper | None


def catalogue_entry(name: str) -> tuple[AgentEntry, str]:
    """The catalogue's entry of that name and where it came from; HarnessError('name') lists the known ones."""
    try:
        plugin = AGENTS.resolve(name)
    except PluginError:
        known = AGENTS.names()
        raise HarnessError("name", f"no agent {name!r} in the catalogue{did_you_mean(name, known)}; known: "
                           f"{', '.join(known)}. Name one of those, or add yours in the experiment's top-level "
                           f"`agents:` block (docs/HARNESSES.md, 'A team's own agent')") from None
    target = plugin.target
    if isinstance(target, dict):
        try:
            target = AgentEntry.model_validate(target)
        except ValidationError as exc:
            raise HarnessError("name", f"agent {name!r} ({plugin.source}) is not a valid entry: {exc}") from None
    if not isinstance(target, AgentEntry):
        raise HarnessError("name", f"agent {name!r} resolves to {type(target).__name__}, not an AgentEntry "
                           f"(nightshift.plugin.AgentEntry) or a mapping of its fields")
    return target, plugin.source + " " + plugin.version


def _mapper(entry: AgentEntry) -> LogMapper | None:
    if not entry.mapper:
        return None
    try:
        found = load_object(entry.mapper, group=AGENTS.group)
    except PluginError as exc:
        raise HarnessError("name", f"agent {entry.name!r}: its mapper {entry.mapper!r} does not load: {exc}") from None
    if not callable(found):
        raise HarnessError("name", f"agent {entry.name!r}: its mapper {entry.mapper!r} is not a function")
    mapper: LogMapper = found
    return mapper


def _run_line(entry: AgentEntry, spec: HarnessSpec, version: str) -> str:
    unknown = sorted(set(spec.settings) - set(entry.settings))
    if unknown:
        raise HarnessError(f"settings.{unknown[0]}", f"agent {entry.name!r} has no setting {unknown[0]!r}"
                           + (did_you_mean(unknown[0], list(entry.settings)) or
                              f"; it has {sorted(entry.settings) or 'none'}") + "; remove it or fix its name")
    values = {**entry.settings, **{k: str(v) for k, v in spec.settings.items()}, "version": version}
    run = entry.run
    for key, value in values.items():
        run = run.replace("{" + key + "}", value)
    return run


def resolve_installed(spec: HarnessSpec) -> tuple[HarnessSpec, InstalledAgent, dict]:
    """The command harness an installed agent runs as, what its log needs, and its identity for the manifest."""
    assert spec.name and spec.version, "HarnessSpec checks kind 'installed' has both"
    entry, source = (spec.entry, "experiment agents:") if spec.entry else catalogue_entry(spec.name)
    if entry.refused:
        raise HarnessError("name", f"agent {entry.name!r} cannot run here: {entry.refused}. Remove the variant, "
                           f"or override the entry in the experiment's `agents:` block with an install that works")
    if spec.version not in entry.versions:
        raise HarnessError("version", f"agent {entry.name!r} pins {', '.join(entry.versions)}, not "
                           f"{spec.version!r}; set version to one of those, or add it to the entry's versions "
                           f"(in the experiment's `agents:` block)")
    install = [line.replace("{version}", spec.version) for line in entry.install] + list(spec.install)
    command = HarnessSpec(kind="command", install=install, run=_run_line(entry, spec, spec.version),
                          env={**entry.env, **spec.env}, max_steps=spec.max_steps)
    agent = InstalledAgent(entry, spec.version, _mapper(entry))
    identity = {"kind": "installed", "name": entry.name, "version": spec.version, "source": source,
                "protocol": entry.protocol, "run": command.run, "install": install, "env": dict(command.env),
                "log": entry.log, "mapper": entry.mapper}
    return command, agent, identity
