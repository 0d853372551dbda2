"""The viewer's files, the same for the local server and for ``--static``: one HTML page, its script and
style, and data files the page loads on demand.

Why this shape: the page is rendered once by Jinja2 (the overview needs no script at all) and a small
plain-JavaScript file, shipped in the package with no build step and no download, draws the trial list,
one trial and the side-by-side view. Data travels as ``.js`` files that call ``NS.load(...)`` through a
``<script>`` tag, because browsers refuse ``fetch`` from a page opened from disk: so a ``--static``
folder attached to a ticket behaves exactly as the server does. Per-trial data is loaded on demand.

Paths (relative to the page): ``assets/viewer.{js,css}``, ``data/<run>/list.js`` (every row, held-out
redacted), ``data/<run>/search.js`` (the agent's commands, loaded after the first paint) and
``data/<run>/t/<trial id>.js``; ``<run>`` is ``a`` for the run and ``b`` for the ``--vs`` run.
"""

from __future__ import annotations

import json
import re
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape

from nightshift.errors import StorageError
from nightshift.viewer.run_data import RunData

ASSETS = ("viewer.js", "viewer.css")
_JS = "text/javascript; charset=utf-8"
_TRIAL_FILE = re.compile(r"^data/([ab])/t/([A-Za-z0-9_.-]{1,128})\.js$")
_env = Environment(loader=PackageLoader("nightshift.viewer", "templates"), autoescape=select_autoescape(["html"]))


class PageNotFound(StorageError, LookupError):
    pass


def _script(kind: str, label: str, payload, trial_id: str | None = None) -> bytes:
    args = [json.dumps(kind), json.dumps(label)] + ([json.dumps(trial_id)] if trial_id else [])
    return f"NS.load({', '.join(args)}, {json.dumps(payload, default=str, separators=(',', ':'))});\n".encode()


class ViewerPages:
    """The files of one viewer: the run (``a``) and optionally the run it is compared with (``b``)."""

    def __init__(self, run: RunData, vs: RunData | None = None):
        self.runs = {"a": run} | ({"b": vs} if vs else {})
        self._cache: dict[str, bytes] = {}
        self._version: tuple = ()

    def _fresh(self) -> None:
        """Drop what was built from rows that have changed since (a night that is still running)."""
        version = tuple(r.version() for r in self.runs.values())
        if version != self._version:
            self.runs = {label: RunData(r.path, label) for label, r in self.runs.items()}
            self._cache.clear()
            self._version = version

    def _cached(self, key: str, build) -> bytes:
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def warm(self) -> None:
        """Read the runs and build the page and the trial list now, before a browser asks."""
        self._fresh()
        self.get("index.html")
        for label in self.runs:
            self.get(f"data/{label}/list.js")

    def index(self) -> bytes:
        runs = {label: {"id": r.run_id, "overview": r.overview()} for label, r in self.runs.items()}
        labels = json.dumps({k: v["id"] for k, v in runs.items()}).replace("<", "\\u003c")  # inside <script>
        return _env.get_template("index.html").render(runs=runs, vs="b" in runs, labels=labels).encode()

    def get(self, path: str) -> tuple[bytes, str]:
        """(content, media type) of one file of the viewer, or PageNotFound."""
        self._fresh()
        if path in ("", "index.html"):
            return self._cached("index.html", self.index), "text/html; charset=utf-8"
        if path.startswith("assets/") and path.removeprefix("assets/") in ASSETS:
            name = path.removeprefix("assets/")
            media = "text/css" if name.endswith(".css") else "text/javascript"
            return (resources.files("nightshift.viewer") / "static" / name).read_bytes(), f"{media}; charset=utf-8"
        for label, run in self.runs.items():
            if path == f"data/{label}/list.js":
                return self._cached(path, lambda r=run, k=label: _script("list", k, r.list_rows())), _JS
            if path == f"data/{label}/search.js":
                return self._cached(path, lambda r=run, k=label: _script("search", k, r.search_text())), _JS
        match = _TRIAL_FILE.match(path)
        if match and match.group(1) in self.runs:
            label, trial_id = match.groups()
            record = self.runs[label].trial(trial_id)
            if record is not None:
                return _script("trial", label, record, trial_id), _JS
        raise PageNotFound(path)

    def all_paths(self) -> list[str]:
        """Every file a static copy needs."""
        paths = ["index.html"] + [f"assets/{a}" for a in ASSETS]
        for label, run in self.runs.items():
            paths += [f"data/{label}/list.js", f"data/{label}/search.js"]
            paths += [f"data/{label}/t/{r['trial_id']}.js" for r in run.rows]
        return paths
