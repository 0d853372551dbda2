"""Hostile commands, run on both backends: each is contained, says why it stopped, and leaves nothing.

Every test runs under the small limits of tests/sandbox_support.py (128 MiB, 64 processes, 64 MiB
of disk, 64 KiB of captured output) and ends by checking that the sandbox's folder, mounts, cgroups,
container and processes are all gone, and that a fresh sandbox still works.
"""

from __future__ import annotations

import http.server
import shutil
import socket
import threading
import uuid
from pathlib import Path

import pytest

from nightshift.sandbox.folder import sandbox_root
from nightshift.sandbox.paths import SandboxPathError
from tests.sandbox_support import BACKENDS, SMALL, Tracked, host_processes, leftovers, make_backend


@pytest.fixture(params=BACKENDS)
def backend(request):
    tracked = Tracked(make_backend(request.param))
    yield tracked
    leaked = [item for sandbox_id in tracked.ids for item in leftovers(sandbox_id)]
    assert not leaked, f"left behind: {leaked}"
    fresh = tracked.create(trial_id="next-trial")  # the next trial is unaffected
    try:
        assert fresh.exec("echo next", timeout_s=30).stdout == "next\n"
    finally:
        fresh.destroy()


@pytest.fixture
def sandbox(backend):
    box = backend.create()
    yield box
    box.destroy()


def test_fork_bomb_hits_the_process_limit_and_is_cleaned_up(sandbox) -> None:
    result = sandbox.exec(":(){ :|:& };:; sleep 3", timeout_s=20)  # the sleep gives the bomb time to grow
    assert "[sandbox] process limit (64) reached" in result.stderr, result.stderr[-500:]
    assert result.duration_s < 20
    survivors = sandbox.exec("sleep 0.5; ps -e -o comm=", timeout_s=10).stdout.split()
    assert survivors.count("bash") <= 2, survivors  # only this command's own shell(s): the bomb is gone


def test_memory_hog_is_killed_at_the_memory_limit(sandbox) -> None:
    result = sandbox.exec("python3 -c \"x = 'x' * (512 << 20); print('survived')\"", timeout_s=30)
    assert result.exit_code == 137 and "survived" not in result.stdout
    assert "[sandbox] out of memory" in result.stderr and "128 MiB" in result.stderr
    assert sandbox.exec("echo still here", timeout_s=10).stdout == "still here\n"


def test_disk_fill_stops_at_the_quota_across_many_files_and_tmp(sandbox) -> None:
    host_free = shutil.disk_usage(sandbox_root()).free
    fill = ("for i in $(seq 1 20); do head -c 8M /dev/zero > /workspace/f$i || break; done; "
            "head -c 32M /dev/zero > /tmp/more; du -sm /workspace /tmp")
    result = sandbox.exec(fill, timeout_s=60)
    assert "No space left on device" in result.stderr
    assert "[sandbox] disk quota full" in result.stderr
    used_mb = sum(int(line.split()[0]) for line in result.stdout.splitlines())
    assert used_mb <= SMALL.disk_mb + 2
    assert host_free - shutil.disk_usage(sandbox_root()).free < 200 * 1024 * 1024
    assert sandbox.exec("rm -f /workspace/f* /tmp/more && echo ok > /workspace/x && cat /workspace/x",
                        timeout_s=10).stdout == "ok\n"


def test_cpu_spin_past_the_exec_timeout_is_killed_with_its_children(sandbox) -> None:
    result = sandbox.exec("(while :; do :; done) & python3 -c 'while True: pass'", timeout_s=2)
    assert result.timed_out and result.exit_code == 137
    assert 2 <= result.duration_s < 8
    assert "[sandbox] timed out after 2s" in result.stderr
    assert sandbox.exec("ps -e -o comm= | grep -c python3", timeout_s=10).stdout.strip() == "0"


def test_100_mb_of_stdout_is_capped_counted_and_dropped(sandbox) -> None:
    result = sandbox.exec("head -c 100000000 /dev/zero | tr '\\0' x; echo done >&2", timeout_s=120)
    cap = SMALL.output_kb * 1024
    assert result.exit_code == 0 and "done" in result.stderr
    assert result.stdout.startswith("x" * cap) and len(result.stdout) < cap + 100
    assert result.stdout_dropped == 100_000_000 - cap


def test_background_process_does_not_outlive_its_exec(sandbox) -> None:
    result = sandbox.exec("sleep 3001 & setsid sleep 3001 & nohup sleep 3001 >/dev/null 2>&1 & "
                          "(trap '' HUP TERM; exec sleep 3001) & echo started", timeout_s=30)
    assert result.stdout == "started\n" and result.duration_s < 5
    assert sandbox.exec("pgrep -c -f 'sleep 300[1]'", timeout_s=10).stdout.strip() == "0"
    assert host_processes("sleep 300[1]") == []


@pytest.fixture
def host_server():
    """A tiny HTTP server on the host, as the model gateway would be: 0.0.0.0, so loopback works too."""
    server = http.server.ThreadingHTTPServer(("0.0.0.0", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


def _host_ip() -> str:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent; this only picks the outgoing address
        return probe.getsockname()[0]
    finally:
        probe.close()


def test_network_is_unreachable_external_and_host_loopback(sandbox, host_server) -> None:
    assert socket.create_connection(("127.0.0.1", host_server), timeout=3)  # the server is up for the host
    targets = [("127.0.0.1", host_server), (_host_ip(), host_server), ("172.17.0.1", host_server),
               ("1.1.1.1", 80), ("deb.debian.org", 80)]
    probe = ("import socket\nfor host, port in %r:\n    try:\n        socket.create_connection((host, port), timeout=3)"
             "\n        print('REACHED', host)\n    except OSError as e:\n        print('blocked', host, e)\n")
    result = sandbox.exec(f"python3 - <<'EOF'\n{probe % targets}\nEOF", timeout_s=60)
    assert "REACHED" not in result.stdout and result.stdout.count("blocked") == len(targets), result.stdout


def test_host_secrets_are_not_visible_inside(backend, monkeypatch, tmp_path: Path) -> None:
    secret = f"sk-fake-{uuid.uuid4().hex}"
    monkeypatch.setenv("NIGHTSHIFT_API_KEY", secret)
    secret_file = tmp_path / "api_key.txt"
    secret_file.write_text(secret)
    secret_file.chmod(0o644)
    box = backend.create()
    try:
        # the command must not contain the secret itself: it would show up in /proc/*/cmdline
        look = (f"env; cat /proc/*/environ /proc/*/cmdline {secret_file} ~/.bash_history 2>/dev/null; "
                "grep -rsh sk-fake- /etc /tmp /workspace /root /home /run /var 2>/dev/null; "
                f"ls {tmp_path} 2>&1; true")
        result = box.exec(look, timeout_s=60)
        assert not result.timed_out
        assert secret not in result.stdout + result.stderr
        assert "NIGHTSHIFT_API_KEY" not in result.stdout
    finally:
        box.destroy()


def test_symlinks_and_fifos_cannot_lead_reads_or_writes_outside(sandbox, tmp_path: Path) -> None:
    outside = tmp_path / "host_file.txt"
    outside.write_text("host data")
    sandbox.exec(f"ln -s {outside} /workspace/leak; ln -s / /workspace/root; ln -s ../tmp /workspace/tmpdir; "
                 "echo t > /tmp/t; mkfifo /workspace/fifo; echo fine > /workspace/ok", timeout_s=10)
    for path in ["/workspace/leak", "/workspace/root/etc/passwd", "/workspace/tmpdir/t", "/workspace/fifo",
                 "/workspace/../../etc/passwd", "/etc/passwd"]:
        with pytest.raises(SandboxPathError):
            sandbox.read_file(path)
    for path in ["/workspace/leak", "/workspace/root/tmp/planted"]:
        with pytest.raises(SandboxPathError):
            sandbox.write_file(path, b"overwritten")
    assert outside.read_text() == "host data" and not Path("/tmp/planted").exists()
    assert sandbox.read_file("/workspace/ok") == b"fine\n"


def test_deleting_the_workspace_and_everything_else_harms_only_the_sandbox(sandbox, tmp_path: Path) -> None:
    sentinel = tmp_path / "sentinel"
    sentinel.write_text("still here")
    sandbox.write_file("/workspace/src/main.py", b"print(1)\n")
    result = sandbox.exec("rm -rf /workspace; rm -rf --no-preserve-root / 2>/dev/null; ls -A /workspace | wc -l",
                          timeout_s=60)
    assert result.stdout.strip() == "0"
    assert sentinel.read_text() == "still here" and Path("/usr/bin/env").exists()
    after = sandbox.exec("echo again > /workspace/new && cat /workspace/new && python3 -c 'print(2)'", timeout_s=10)
    assert after.stdout == "again\n2\n"
