"""Where the viewer of a run lives, so reports, Prefect artifacts and the terminal can link to it.

``nightshift view`` serves every run folder of one output folder at ``/run/<run id>/`` on a fixed local
port (4300, or $NIGHTSHIFT_VIEWER_URL), so a link written into last night's report still opens while any
viewer of that folder is running.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from urllib.parse import quote

DEFAULT_PORT = 4300


def viewer_base() -> str:
    return os.environ.get("NIGHTSHIFT_VIEWER_URL", f"http://127.0.0.1:{DEFAULT_PORT}").rstrip("/")


def run_url(run_id: str, **fragment: str) -> str:
    """The viewer page of one run; ``trial=``, ``case=``, ``pair=`` ... open a trial, a case, two trials."""
    url = f"{viewer_base()}/run/{quote(run_id, safe='')}/"
    if fragment:
        url += "#" + "&".join(f"{k}={quote(str(v), safe=':,')}" for k, v in fragment.items())
    return url


def view_command(run_dir: Path | str) -> str:
    return f"nightshift view {shlex.quote(str(run_dir))}"


def pair_url(run_a: str, trial_a: str, run_b: str, trial_b: str) -> str:
    """Two trials side by side: in one run, or run A against run B (``/run/A/vs/B/``)."""
    if run_a == run_b:
        return run_url(run_a, pair=f"a:{trial_a},a:{trial_b}")
    base = run_url(run_a).removesuffix("/") + f"/vs/{quote(run_b, safe='')}/"
    return base + f"#pair=a:{trial_a},b:{trial_b}"
