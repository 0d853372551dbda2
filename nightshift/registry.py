"""One way to name a plugin at every extension point: a built-in name, an entry point, or `module:attr`.

Each extension point (harnesses, metrics, suite importers, sandbox backends) is a `Registry` over one
entry-point group (`nightshift.<group>`). A third-party package adds a plugin by declaring an entry
point in that group; a user's own code is named directly as `module:attr`. Whatever resolves it, the
plugin's identity — name, where it came from, and a version (its distribution's version, or a
content hash of a local module) — is what reaches the manifest.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import nightshift
from nightshift.errors import ConfigurationError
from nightshift.resources import project_dir
from nightshift.validation_messages import did_you_mean


class PluginError(ConfigurationError, ValueError):
    """A plugin name that does not resolve; the message names the group, the name and the fix."""


@dataclass(frozen=True)
class Plugin:
    """One resolved plugin: the object, and the identity that is pinned in the manifest."""

    group: str
    name: str
    target: Any
    source: str  # 'builtin', 'entry point (dist-name)', or 'module'
    version: str

    def identity(self) -> dict[str, str]:
        return {"name": self.name, "source": self.source, "version": self.version}


def _module_version(module_name: str) -> str:
    """The installed distribution's version of a module, else a content hash of its source file."""
    top = module_name.split(".")[0]
    if top == "nightshift":  # before the distribution scan, which reads every installed package's metadata
        return nightshift.__version__ + "+" + _content_hash(module_name)
    dists = metadata.packages_distributions().get(top, [])
    if dists:
        try:
            return f"{dists[0]} {metadata.version(dists[0])}"
        except metadata.PackageNotFoundError:
            pass
    return _content_hash(module_name)


def _content_hash(module_name: str) -> str:
    module = importlib.import_module(module_name)
    try:
        source = Path(inspect.getfile(module)).read_bytes()
    except (TypeError, OSError):
        return "unknown"
    return "sha256:" + hashlib.sha256(source).hexdigest()[:16]


def importable_from_project() -> None:
    """`module:attr` is looked up from the user's project folder too: console scripts (`nightshift ...`) do not
    put the current folder on sys.path, and a Prefect worker runs from it. Appended, so a project's own
    module never shadows an installed one."""
    folder = str(project_dir())
    if folder not in sys.path:
        sys.path.append(folder)


def load_object(path: str, *, group: str) -> Any:
    """Import `module:attr` (attr may be dotted) from the installed packages or the project folder; errors say
    what failed and how to fix it."""
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise PluginError(f"{group}: {path!r} is neither a registered name nor 'module:attr'")
    if module_name.endswith(".py") or "/" in module_name:  # a file path where a module name belongs
        dotted = module_name.removesuffix(".py").strip("./").replace("/", ".")
        raise PluginError(f"{group}: {path!r} names a file; name its module instead: '{dotted}:{attr}' (a module "
                          f"of your project folder, {project_dir()}, or an installed one)")
    importable_from_project()
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"{group}: cannot import module {module_name!r} for {path!r} ({exc}); is it installed, "
                          f"or a module in your project folder ({project_dir()})? Run nightshift from the folder "
                          f"that holds it, or set $NIGHTSHIFT_HOME to that folder") from exc
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError as exc:
            names = [n for n in dir(target) if not n.startswith("_")]
            raise PluginError(f"{group}: module {module_name!r} has no attribute {attr!r} (from {path!r})"
                              + did_you_mean(part, names)) from exc
    return target


class Registry:
    """The plugins of one extension point: built-ins, then entry points of `nightshift.<group>`."""

    def __init__(self, group: str, builtins: dict[str, str]) -> None:
        self.group = f"nightshift.{group}"
        self._builtins = builtins  # name -> 'module:attr', imported only when used

    def _entry_points(self) -> dict[str, metadata.EntryPoint]:
        return {ep.name: ep for ep in metadata.entry_points(group=self.group)}

    def builtin_names(self) -> list[str]:
        """The built-ins, in the order they were declared."""
        return list(self._builtins)

    def names(self) -> list[str]:
        return sorted({*self._builtins, *self._entry_points()})

    def resolve(self, spec: str) -> Plugin:
        """A built-in name, an installed entry point's name, or 'module:attr'."""
        if spec in self._builtins:
            path = self._builtins[spec]
            target = load_object(path, group=self.group)
            return Plugin(self.group, spec, target, "builtin", _module_version(path.partition(":")[0]))
        entry_points = self._entry_points()
        if spec in entry_points:
            ep = entry_points[spec]
            try:
                target = ep.load()
            except Exception as exc:  # noqa: BLE001 - any failure of a third-party import is a plugin error
                raise PluginError(f"{self.group}: entry point {spec!r} ({ep.value}) failed to load: {exc}") from exc
            dist = ep.dist.name if ep.dist else "unknown"
            version = metadata.version(dist) if ep.dist else "unknown"
            return Plugin(self.group, spec, target, f"entry point ({dist})", f"{dist} {version}")
        if ":" in spec:
            target = load_object(spec, group=self.group)
            return Plugin(self.group, spec, target, "module", _module_version(spec.partition(":")[0]))
        raise PluginError(f"{self.group}: no plugin named {spec!r}; installed: {', '.join(self.names()) or 'none'}. "
                          f"Name one of those, a 'module:attr' path, or install a package that declares an "
                          f"entry point in the {self.group!r} group")

    def installed(self) -> list[Plugin]:
        """Every plugin this environment has, resolved (a plugin that fails to load is shown with its error)."""
        found = []
        for name in self.names():
            try:
                found.append(self.resolve(name))
            except PluginError as exc:
                found.append(Plugin(self.group, name, None, "broken", str(exc)))
        return found
