"""The local viewer server: every run folder of one output folder at ``/run/<run id>/`` (``/run/<id>/vs/<other>/``
for a side-by-side of two runs), bound to 127.0.0.1 only; and ``write_static`` for ``--static OUT``.

A run name in a URL is only ever resolved to a direct child folder of the output folder, so no URL can
reach files outside it.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path

import uvicorn
from fastapi import FastAPI, HTTPException
from fastapi.responses import RedirectResponse, Response

from nightshift.viewer.pages import PageNotFound, ViewerPages
from nightshift.viewer.run_data import RunData, RunNotFound

_RUN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")


def create_app(run: RunData, vs: RunData | None = None) -> FastAPI:
    """The app serving ``run`` (and its siblings in the same folder); ``/`` opens ``run`` (vs ``vs``)."""
    base = run.path.parent
    lock = threading.Lock()

    @lru_cache(maxsize=8)
    def pages_for(name: str, other: str | None) -> ViewerPages:
        def open_run(n: str, label: str) -> RunData:
            if n == run.run_id and label == "a":
                return run
            if vs is not None and n == vs.run_id:
                return RunData(vs.path, label)
            if not _RUN_NAME.match(n) or not (base / n).is_dir():
                raise RunNotFound(n)
            return RunData.open(base / n, label)

        return ViewerPages(open_run(name, "a"), open_run(other, "b") if other else None)

    pages_for(run.run_id, vs.run_id if vs else None).warm()  # the first page load does not wait for reading

    def serve(name: str, other: str | None, path: str) -> Response:
        try:
            with lock:  # lru_cache is not safe against two threads building the same run at once
                pages = pages_for(name, other)
            content, media = pages.get(path)
        except (RunNotFound, PageNotFound) as exc:
            raise HTTPException(404, f"not found: {exc}") from None
        return Response(content, media_type=media, headers={"Cache-Control": "no-store"})

    app = FastAPI(title="nightshift view", docs_url=None, redoc_url=None, openapi_url=None)

    @app.get("/")
    def home() -> RedirectResponse:
        return RedirectResponse(f"/run/{run.run_id}/" + (f"vs/{vs.run_id}/" if vs else ""))

    @app.get("/run/{name}/vs/{other}/{path:path}")
    def run_vs(name: str, other: str, path: str) -> Response:
        return serve(name, other, path)

    @app.get("/run/{name}/{path:path}")
    def one_run(name: str, path: str) -> Response:
        return serve(name, None, path)

    return app


def write_static(run: RunData, vs: RunData | None, out: Path) -> int:
    """Write the viewer as plain files (open ``out/index.html`` from disk); returns how many were written."""
    pages = ViewerPages(run, vs)
    paths = pages.all_paths()
    for path in paths:
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pages.get(path)[0])
    return len(paths)


def serve_forever(run: RunData, vs: RunData | None, host: str, port: int) -> None:
    uvicorn.run(create_app(run, vs), host=host, port=port, log_level="warning")
