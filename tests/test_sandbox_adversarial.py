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
    # the shells every command runs in (its own; bubblewrap adds its pid-1 supervisor)
    shells = sandbox.exec("sleep 0.5; ps -e -o comm=", timeout_s=10).stdout.split().count("bash")
    result = sandbox.exec(":(){ :|:& };:; sleep 3", timeout_s=20)  # the sleep gives the bomb time to grow
    assert "[sandbox] process limit (64) reached" in result.stderr, result.stderr[-500:]
    assert result.duration_s < 20
    survivors = sandbox.exec("sleep 0.5; ps -e -o comm=", timeout_s=10).stdout.split()
    assert survivors.count("bash") == shells, survivors  # only this command's own shell(s): the bomb is gone


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
    # the command never ends by itself: returning at all is the kill; how soon after 2 s is bench/timing_claims.py's
    result = sandbox.exec("(while :; do :; done) & python3 -c 'while True: pass'", timeout_s=2)
    assert result.timed_out and result.exit_code == 137
    assert 2 <= result.duration_s < 60
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
    # returned by itself (not at its 30 s timeout, not after the sleeps); how soon: bench/timing_claims.py
    assert result.stdout == "started\n" and not result.timed_out
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
    monkeypatch.setenv("PREFECT_API_AUTH_STRING", secret)  # the Prefect server's credential, as workers hold it
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
        assert "NIGHTSHIFT_API_KEY" not in result.stdout and "PREFECT_API_AUTH_STRING" not in result.stdout
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


# ---- what an agent sends can never break its own trial (sandbox/command_file.py) ----

@pytest.mark.parametrize("command, exit_code, expect", [
    ("cat > /workspace/big <<'END'\n" + "y" * 150_000 + "\nEND\nwc -c < /workspace/big", 0, "150001\n"),
    ("# " + "z" * 3_000_000 + "\necho after a 3 MB line", 0, "after a 3 MB line\n"),
    ("echo before\0after", 126, "cannot execute binary file"),
    ("true\necho one\0two", 0, "onetwo\n"),
    ("echo lone \udc80 and \ud800 surrogates", 0, "surrogates\n"),
    (b"printf '%s' \xff\xfe".decode("utf-8", "surrogateescape") + "; echo", 0, "\n"),
    (42, 126, "[sandbox] refused: the command must be a string"),
    (None, 126, "[sandbox] refused"),
    ("kill -9 $$", 137, ""),
    ("kill -KILL -1; echo survived", 0, "survived"),  # nothing else of its uid to kill, on both
], ids=["150KB-heredoc", "3MB-line", "nul-first-line", "nul-later", "surrogates", "binary", "int", "none",
        "kill-own-shell", "kill-all"])
def test_any_command_returns_a_result_never_an_exception(sandbox, command, exit_code, expect) -> None:
    result = sandbox.exec(command, timeout_s=60)
    assert result.exit_code == exit_code, (result.exit_code, result.stderr[-300:])
    assert expect in result.stdout + result.stderr
    assert sandbox.exec("echo fine", timeout_s=10).stdout == "fine\n"  # the sandbox is unharmed


def test_bad_cwd_or_env_is_refused_as_a_result(sandbox) -> None:
    for kwargs in ({"cwd": "/work\0space"}, {"cwd": "relative"}, {"env": {"A": "x\0y"}}, {"env": {"A=B": "1"}},
                   {"env": {"A": "\udc80"}}):
        result = sandbox.exec("echo hi", timeout_s=10, **kwargs)
        assert result.exit_code == 126 and "[sandbox] refused" in result.stderr, kwargs


# ---- one uid per sandbox: per-user kernel quotas are per trial (sandbox/uids.py) ----

_CTYPES = """import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL("librt.so.1", use_errno=True)
rt.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p]
class Attr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long),
                ("cur", ctypes.c_long)]
attr = Attr(0, 10, 8192, 0)
"""
_HOLD = _CTYPES + """
instances = 0
while libc.inotify_init() >= 0:
    instances += 1
inotify_errno = ctypes.get_errno()
queues = 0
while rt.mq_open(b"/q%d" % queues, os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(attr)) >= 0:
    queues += 1
mq_errno = ctypes.get_errno()
open("/workspace/holding", "w").write(f"{instances} {inotify_errno} {queues} {mq_errno}")
time.sleep(15)
"""
_PROBE = _CTYPES + """
print("inotify", libc.inotify_init() >= 0, ctypes.get_errno())
print("mqueue", rt.mq_open(b"/probe", os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(attr)) >= 0, ctypes.get_errno())
"""


def _python(script: str) -> str:
    return f"python3 - <<'PYTHON'\n{script}\nPYTHON"


def test_a_trial_exhausting_per_user_quotas_does_not_affect_a_concurrent_one(backend) -> None:
    import time

    hog, neighbour = backend.create(trial_id="hog"), backend.create(trial_id="neighbour")
    try:
        assert hog.uid != neighbour.uid
        holder = threading.Thread(target=hog.exec, args=(_python(_HOLD), 60), daemon=True)
        holder.start()
        marker = hog.folder.workspace / "holding"
        deadline = time.monotonic() + 40
        while not (marker.exists() and marker.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        instances, inotify_errno, queues, mq_errno = (int(x) for x in marker.read_text().split())
        # the hog reached both per-user limits (EMFILE) ...
        assert inotify_errno == 24 and instances >= 1 and queues >= 1 and mq_errno == 24, marker.read_text()
        # ... and its neighbour, running at the same time as another uid, is not affected
        result = neighbour.exec(_python(_PROBE), timeout_s=30)
        assert result.stdout.splitlines()[:2] == ["inotify True 0", "mqueue True 0"], result.stdout + result.stderr
        assert "python3" not in neighbour.exec("ps -e -o args=", timeout_s=10).stdout  # nor sees the hog
        holder.join(60)
    finally:
        hog.destroy()
        neighbour.destroy()


# ---- the syscall filter: no keyring channel, no io_uring, no kernel or clock changes (sandbox/seccomp.py) ----

_SYSCALLS = """import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
calls = {"add_key": (248, b"user", b"nightshift-channel", b"hello from another trial", 24, -4),
         "keyctl": (250, 0, -3), "request_key": (249, b"user", b"x", None, 0),
         "io_uring_setup": (425, 8, buf), "init_module": (175, None, 0, b""), "finit_module": (313, 0, b"", 0),
         "clock_settime": (227, 0, buf), "settimeofday": (164, buf, None),
         "mount": (165, b"x", b"/tmp", b"tmpfs", 0, None), "unshare": (272, 0x10000000), "bpf": (321, 0, buf, 64),
         "perf_event_open": (298, buf, 0, -1, -1, 0), "userfaultfd": (323, 0)}
for name, args in calls.items():
    ctypes.set_errno(0)
    rc = libc.syscall(*args)
    print(name, rc, errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno()))
"""


def test_keyring_io_uring_modules_clocks_and_mounts_are_refused(backend) -> None:
    import os

    if os.uname().machine != "x86_64":
        pytest.skip("the probe uses x86_64 syscall numbers")
    first, second = backend.create(trial_id="keys-a"), backend.create(trial_id="keys-b")
    try:
        result = first.exec(_python(_SYSCALLS), timeout_s=30)
        outcomes = dict(line.split(" ", 1) for line in result.stdout.splitlines())
        assert len(outcomes) == 13, result.stdout + result.stderr
        assert {name: outcome for name, outcome in outcomes.items() if outcome != "-1 EPERM"} == {}
        assert second.exec("grep -c nightshift-channel /proc/keys; true", timeout_s=10).stdout.strip() == "0"
        # what trials do every day still works under the filter: threads, processes, unix sockets
        normal = first.exec("python3 -c 'import subprocess, socket, threading; socket.socketpair(); "
                            "threading.Thread(target=print).start(); "
                            "print(subprocess.run([\"echo\", \"ok\"], capture_output=True, text=True).stdout)'",
                            timeout_s=30)
        assert normal.stdout == "\nok\n\n", normal.stderr
    finally:
        first.destroy()
        second.destroy()


def test_every_process_a_command_can_reach_runs_under_the_filter(sandbox) -> None:
    """No unfiltered process in reach: a command that ptraces one (or writes its /proc/PID/mem) could make
    any syscall through it. bubblewrap's own reaper used to be such a pid 1."""
    probe = ("python3 - <<'PYTHON'\nimport glob\nfor path in sorted(glob.glob('/proc/[0-9]*/status')):\n"
             "    fields = dict(line.split(':', 1) for line in open(path).read().splitlines() if ':' in line)\n"
             "    print(path.split('/')[2], fields['Seccomp'].strip(), fields['Name'].strip())\nPYTHON")
    result = sandbox.exec(probe, timeout_s=30)
    rows = [line.split() for line in result.stdout.splitlines()]
    assert len(rows) >= 3 and [r for r in rows if r[1] != "2"] == [], result.stdout + result.stderr
