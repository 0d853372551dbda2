"""Which harness a variant names: its class, its validated settings, and the identity the manifest pins.

Every kind goes through the one registry (nightshift.plugins.HARNESSES): `reference` is a built-in name,
a Python harness is an entry point of `nightshift.harnesses` or `module:Class` importable from the
project folder, and a command harness is nightshift's own runner (harnesses/command_harness.py) around the
user's install and run lines; an installed agent is a command harness whose lines come from the catalogue
(harnesses/catalogue.py). A harness declares its settings as a pydantic model in `Settings`; a
field it does not declare is an error here, before any trial starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from nightshift.errors import HarnessError
from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses.catalogue import InstalledAgent, resolve_installed
from nightshift.plugins import HARNESSES
from nightshift.registry import PluginError
from nightshift.validation_messages import did_you_mean, error_lines, field_names


@dataclass(frozen=True)
class ResolvedHarness:
    """A variant's harness, ready to build: the class (none for `command`), its settings, its pins."""

    spec: HarnessSpec
    target: Any
    settings: BaseModel | None
    identity: dict = field(default_factory=dict)
    agent: InstalledAgent | None = None  # kind 'installed': the catalogue entry (its log and mapper)


def _validate_settings(target: Any, name: str, settings: dict) -> BaseModel | None:
    model = getattr(target, "Settings", None)
    if model is None:
        if settings:
            raise HarnessError("settings", f"harness {name!r} declares no Settings model, so it takes no settings "
                               f"(got {sorted(settings)}); remove 'settings' or add a pydantic Settings class to it")
        return None
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise HarnessError("entrypoint", f"harness {name!r}: its Settings must be a pydantic BaseModel class")
    known = field_names(model)
    unknown = sorted(set(settings) - known)
    # even if the harness's model ignores extras: a typo must not pass silently
    problems = [(f"settings.{u}", f"has no setting {u!r}" + (did_you_mean(u, known) or f"; it knows "
                                                                f"{sorted(known)}")) for u in unknown]
    try:
        validated = model.model_validate(settings)
    except ValidationError as exc:
        validated = None
        problems += [(where, msg) for where, msg in error_lines(exc, model, "settings")
                     if not msg.startswith("not a field")]  # the unknown ones are above, once
    if problems:  # the caller names the first field; with more, each is named here
        listed = problems[0][1] if len(problems) == 1 else "; ".join(f"{w}: {m}" for w, m in problems)
        raise HarnessError(problems[0][0], f"harness {name!r}: {listed} (fix {'it' if len(problems) == 1 else 'them'}"
                           f" to match {model.__module__}.{model.__qualname__})")
    return validated


def resolve_harness(spec: HarnessSpec) -> ResolvedHarness:
    """Resolve and validate one variant's harness; HarnessError names the field and the fix."""
    if spec.kind == "installed":  # a catalogue entry, run as the command harness it describes
        command, agent, identity = resolve_installed(spec)
        return ResolvedHarness(command, None, None, identity, agent)
    if spec.kind == "command":
        identity = {"kind": "command", "run": spec.run, "install": list(spec.install), "env": dict(spec.env)}
        if spec.log is not None:  # only when set, so the trial ids of existing command harnesses stay as they were
            identity["log"] = spec.log.model_dump()
        return ResolvedHarness(spec, None, None, identity)  # run by harnesses/command_harness.py
    name = "reference" if spec.kind == "reference" else str(spec.entrypoint)
    if spec.kind == "reference" and spec.entrypoint not in (None, "reference"):
        raise HarnessError("entrypoint", "kind 'reference' is nightshift's own loop; for your harness use "
                           "kind 'python' with this entrypoint")
    try:
        plugin = HARNESSES.resolve(name)
    except PluginError as exc:
        raise HarnessError("entrypoint", f"{exc}") from None
    if not callable(getattr(plugin.target, "run", None)):
        raise HarnessError("entrypoint", f"{name!r} resolves to {plugin.target!r}, which has no run(case, sandbox, "
                           f"model, seed, trajectory_path) method; name a harness class (docs/HARNESSES.md)")
    settings = _validate_settings(plugin.target, name, spec.settings)
    identity = {"kind": spec.kind, "entrypoint": name, "source": plugin.source, "version": plugin.version,
                "settings": settings.model_dump(mode="json") if settings else {}}
    return ResolvedHarness(spec, plugin.target, settings, identity)
