"""The local Prefect server's API credential: Prefect's own basic authentication, on for every server we start.

`prefect server start` with ``PREFECT_SERVER_API_AUTH_STRING`` refuses (401) every API request whose
``Authorization: Basic`` header does not carry that string (health and ready probes excepted); its clients send it
from ``PREFECT_API_AUTH_STRING`` (Prefect 3's settings of those names). The string is made once per project
(``secrets.token_urlsafe``), kept in ``.nightshift/prefect-server.auth`` (mode 0600, beside the server's home) and
handed to whatever nightshift starts: the server, this process, its workers and the prefect CLI it runs, all by
the environment. Workers on other machines are given it the same way (docs/SCALING.md).
"""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import os
import secrets
import stat
from pathlib import Path

import httpx
import prefect.context

from nightshift.errors import OrchestrationError

CLIENT_ENV = "PREFECT_API_AUTH_STRING"
SERVER_ENV = "PREFECT_SERVER_API_AUTH_STRING"
FILE_NAME = "prefect-server.auth"


class ServerAuthError(OrchestrationError):
    """The credential file or a running server's authentication is not what nightshift needs; the message says
    which file or port, and the fix."""


def credential_file(state_dir: Path) -> Path:
    return state_dir / FILE_NAME


def read_credential(path: Path) -> str | None:
    """The credential in ``path``, None if there is none; refused if others may read it (like ssh's keys)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(mode) or path.is_symlink():
        raise ServerAuthError(f"{path}: the Prefect server's credential must be a plain file: remove it and start "
                              "the server again (a new credential is made)")
    if mode & 0o077:
        raise ServerAuthError(f"{path} is mode {mode & 0o777:o}: the Prefect server's credential must be readable "
                              f"by you alone: chmod 600 {path}")
    secret = path.read_text().strip()
    if not secret:
        raise ServerAuthError(f"{path} is empty: remove it and start the server again (a new credential is made)")
    return secret


def ensure_credential(state_dir: Path) -> str:
    """This project's credential: the file's, else made now and written mode 0600 (created with that mode, so
    there is no moment when others could read it). A ``PREFECT_API_AUTH_STRING`` already set in the environment
    is taken as the new one, so servers started by one process (a test session) share one string."""
    path = credential_file(state_dir)
    if (found := read_credential(path)) is not None:
        return found
    secret = os.environ.get(CLIENT_ENV) or secrets.token_urlsafe(32)
    state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secret + "\n")
    return secret


def use_credential(secret: str) -> None:
    """Make this process (and every child it starts, inheriting the environment) present ``secret``. Prefect read
    its settings when imported, so the global settings are refreshed too."""
    os.environ[CLIENT_ENV] = secret
    prefect.context.refresh_global_settings_context()


def basic_header(secret: str) -> dict[str, str]:
    """Prefect's scheme: ``Basic`` + base64 of the string itself (not of user:password)."""
    return {"Authorization": "Basic " + base64.b64encode(secret.encode()).decode()}


def check_server(url: str, secret: str, source: Path) -> None:
    """A server already answering on ``url`` must refuse strangers and accept ``secret``: one started without
    authentication (by an older nightshift, or by hand) or with another credential is not used."""
    probe = f"{url}/admin/version"  # a cheap authenticated endpoint (health is open to all by design)
    try:
        anonymous = httpx.get(probe, timeout=10).status_code
        ours = httpx.get(probe, headers=basic_header(secret), timeout=10).status_code
    except httpx.HTTPError as exc:
        raise ServerAuthError(f"the Prefect server at {url} did not answer {probe}: {exc}") from None
    port = httpx.URL(url).port
    if anonymous != 401:
        raise ServerAuthError(f"the Prefect server on port {port} takes requests without a credential (answered "
                              f"{anonymous}): it was not started by this nightshift. Stop it (nightshift server "
                              "stop, or the process that runs it) and start it again, or choose another --port")
    if ours != 200:
        raise ServerAuthError(f"the Prefect server on port {port} refuses the credential in {source} (answered "
                              f"{ours}): it was started with another one. nightshift server stop, then start it "
                              "again")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    return False


def network_warning(host: str, port: int) -> str | None:
    """What to tell someone who binds the server beyond this machine (auth is on, but HTTP is clear text)."""
    if is_loopback(host):
        return None
    return (f"the Prefect server listens on {host}:{port}, beyond this machine. Every request must carry the "
            "credential, but plain HTTP shows it to anyone on the path: reach it over an SSH tunnel, a VPN or a TLS "
            "proxy, and give other machines the credential as docs/SCALING.md says")
