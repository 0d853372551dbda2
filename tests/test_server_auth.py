"""The local Prefect server's API authentication (deployments/auth.py): the credential file, a running server that
must prove it asks for it, the hand-over to the prefect CLI's profile and to docker workers. Refusals of real
requests, and a worker running a night on the authenticated server, are in test_deployment.py."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from nightshift.deployments.auth import (
    CLIENT_ENV,
    ServerAuthError,
    basic_header,
    check_server,
    credential_file,
    ensure_credential,
    network_warning,
    read_credential,
)
from tests.conftest import free_port


@pytest.fixture
def no_client_credential(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CLIENT_ENV, raising=False)


def test_a_new_credential_is_made_once_readable_by_its_owner_alone(tmp_path: Path, no_client_credential: None
                                                                   ) -> None:
    old = os.umask(0o000)  # a permissive umask must not widen the file
    try:
        first = ensure_credential(tmp_path / "state")
    finally:
        os.umask(old)
    path = credential_file(tmp_path / "state")
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(first) >= 40 and path.read_text().strip() == first
    assert ensure_credential(tmp_path / "state") == first  # kept across restarts: remote workers keep working
    assert ensure_credential(tmp_path / "other") != first  # another project, another credential


def test_a_credential_others_may_read_is_refused_with_the_fix(tmp_path: Path, no_client_credential: None) -> None:
    ensure_credential(tmp_path)
    path = credential_file(tmp_path)
    path.chmod(0o644)
    with pytest.raises(ServerAuthError, match=rf"{path} is mode 644.*chmod 600 {path}"):
        ensure_credential(tmp_path)
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_text("planted\n")
    (tmp_path / "elsewhere").chmod(0o600)
    with pytest.raises(ServerAuthError, match="must be a plain file"):
        read_credential(path)


def test_a_credential_set_in_the_environment_is_taken_for_a_new_server(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CLIENT_ENV, "chosen-by-the-operator")
    assert ensure_credential(tmp_path) == "chosen-by-the-operator"
    monkeypatch.setenv(CLIENT_ENV, "a later one")
    assert ensure_credential(tmp_path) == "chosen-by-the-operator"  # the server's file wins once it exists


@pytest.mark.parametrize("host, warned", [("127.0.0.1", False), ("localhost", False), ("::1", False),
                                          ("0.0.0.0", True), ("10.1.2.3", True), ("::", True)])
def test_a_network_address_is_warned_about(host: str, warned: bool) -> None:
    warning = network_warning(host, 4200)
    assert (warning is not None) == warned
    if warning:
        assert "SSH tunnel" in warning and "docs/SCALING.md" in warning


class _OpenHandler(http.server.BaseHTTPRequestHandler):
    """Answers everything, as a Prefect server started without authentication does."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'"3.9.1"')

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def open_server() -> Iterator[int]:
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _OpenHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield port
    finally:
        server.shutdown()


def test_a_running_server_that_takes_anyones_requests_is_not_used(open_server: int, tmp_path: Path) -> None:
    from nightshift.deployments.server import ensure_server

    with pytest.raises(ServerAuthError, match=f"port {open_server} takes requests without a credential"):
        ensure_server(port=open_server, state_dir=tmp_path, timeout_s=5)


def test_a_running_server_with_another_credential_is_not_used(prefect_server: str, tmp_path: Path) -> None:
    with pytest.raises(ServerAuthError, match="refuses the credential in .*nightshift server stop"):
        check_server(prefect_server, "not-the-servers-credential", tmp_path / "prefect-server.auth")
    check_server(prefect_server, os.environ[CLIENT_ENV], tmp_path / "x")  # the session's own passes


def test_the_prefect_cli_reaches_the_server_through_the_profile_serve_writes(prefect_server: str,
                                                                           tmp_path: Path) -> None:
    profiles = tmp_path / "profiles.toml"
    profiles.write_text('active = "mine"\n\n[profiles.mine]\nPREFECT_LOGGING_LEVEL = "WARNING"\n')
    profiles.chmod(0o644)
    # as `nightshift serve` does it, after ensure_server handed it the credential
    wrote = subprocess.run([sys.executable, "-c", "import sys; from nightshift.deployments.server import "
                            "point_profile_at; print(point_profile_at(sys.argv[1]))", prefect_server],
                           env={**os.environ, "PREFECT_PROFILES_PATH": str(profiles)}, capture_output=True,
                           text=True, timeout=120)
    assert wrote.stdout.strip() == str(profiles), wrote.stderr
    assert profiles.stat().st_mode & 0o777 == 0o600
    assert f'{CLIENT_ENV} = "{os.environ[CLIENT_ENV]}"' in profiles.read_text()
    assert 'PREFECT_LOGGING_LEVEL = "WARNING"' in profiles.read_text()  # the user's own settings are kept
    # a shell of the user's: nothing in its environment but the profiles file
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    env["PREFECT_PROFILES_PATH"] = str(profiles)
    ok = subprocess.run([sys.executable, "-m", "prefect", "work-pool", "ls"], env=env, capture_output=True,
                        text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr  # (without the credential it fails: test_deployment.py)


def test_docker_workers_get_the_credential_and_pass_it_to_shard_containers(tmp_path: Path,
                                                                         no_client_credential: None,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from prefect.settings import PREFECT_API_AUTH_STRING, PREFECT_API_URL, temporary_settings
    from prefect_docker.worker import DockerWorkerJobConfiguration

    from nightshift.deployments.docker_pool import hand_credential, pool_template

    monkeypatch.setenv("NIGHTSHIFT_HOME", str(tmp_path))
    assert "credential: none" in hand_credential()
    secret = ensure_credential(tmp_path / ".nightshift")
    assert hand_credential() == f"credential: {credential_file(tmp_path / '.nightshift')}"
    assert os.environ[CLIENT_ENV] == secret  # what `nightshift docker-worker` execs the worker with
    # prefect-docker puts the worker's own settings into every flow-run container's environment
    with temporary_settings(updates={PREFECT_API_URL: "http://127.0.0.1:9/api", PREFECT_API_AUTH_STRING: secret}):
        job = DockerWorkerJobConfiguration(image="nightshift/worker", network_mode="host")
        assert job._base_environment()[CLIENT_ENV] == secret
    # and never the pool's job template, which the server stores and the UI shows
    assert secret not in str(pool_template("sha256:" + "0" * 64, [tmp_path]))


def test_health_stays_open_for_probes_but_nothing_else(prefect_server: str) -> None:
    assert httpx.get(f"{prefect_server}/health", timeout=10).status_code == 200
    assert httpx.get(f"{prefect_server}/health", headers=basic_header("wrong"), timeout=10).status_code == 200
    assert httpx.get(f"{prefect_server}/admin/version", timeout=10).status_code == 401


def test_an_exported_url_of_the_projects_own_server_gets_its_credential_and_no_other_does(
        tmp_path: Path, no_client_credential: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import nightshift.deployments.server as server

    handed: list[str] = []
    monkeypatch.setattr(server, "use_credential", handed.append)
    monkeypatch.setenv("NIGHTSHIFT_PREFECT_PORT", "4321")
    secret = ensure_credential(tmp_path)
    assert not server.present_own_credential("http://10.0.0.5:4321/api", tmp_path)  # a stranger: never
    assert not server.present_own_credential("http://127.0.0.1:4200/api", tmp_path)  # another local server
    assert server.present_own_credential("http://127.0.0.1:4321/api", tmp_path) and handed == [secret]
