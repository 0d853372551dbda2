"""One interface, one behaviour: the same checks on both backends, plus the reaper and a kill -9 worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nightshift.contracts import Sandbox, SandboxSpec
from nightshift.sandbox.folder import SandboxFolder, sandbox_root
from nightshift.sandbox.uids import uid_range
from tests.sandbox_support import BACKENDS, SMALL, Tracked, backend_image, host_processes, leftovers, make_backend

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(params=BACKENDS)
def backend(request):
    tracked = Tracked(make_backend(request.param))
    yield tracked
    leaked = [item for sandbox_id in tracked.ids for item in leftovers(sandbox_id)]
    assert not leaked, f"left behind: {leaked}"


def test_commands_run_unprivileged_with_a_clean_environment(backend, tmp_path: Path) -> None:
    (tmp_path / "hello.txt").write_text("from the case\n")
    box = backend.create(workspace_source=tmp_path)
    try:
        assert isinstance(box, Sandbox)
        result = box.exec("id -u; id -un; pwd; echo $HOME; cat hello.txt; echo err >&2; exit 3", timeout_s=30,
                          env={"EXTRA": "1"})
        first, last = uid_range()  # its own uid from the reserved range, named in its /etc/passwd
        assert first <= box.uid <= last
        assert (result.exit_code, result.stdout, result.stderr) == (
            3, f"{box.uid}\nsandbox\n/workspace\n/tmp\nfrom the case\n", "err\n")
        assert box.exec("echo $EXTRA", timeout_s=10, env={"EXTRA": "yes"}).stdout == "yes\n"
        assert box.exec("pwd", timeout_s=10, cwd="/tmp").stdout == "/tmp\n"
        for path in ("/usr/bin/x", "/etc/x", "/x"):
            assert box.exec(f"touch {path}", timeout_s=10).exit_code != 0, f"{path} is writable"
    finally:
        box.destroy()


def test_workspace_and_tmp_persist_between_commands_and_files_move_both_ways(backend) -> None:
    box = backend.create()
    try:
        box.exec("echo a > /workspace/a; echo t > /tmp/t", timeout_s=10)
        assert box.exec("cat /workspace/a /tmp/t", timeout_s=10).stdout == "a\nt\n"
        box.write_file("/workspace/deep/dir/f.py", b"print('hi')\n")
        result = box.exec("python3 deep/dir/f.py && touch deep/dir/new && echo ok > deep/dir/f.py", timeout_s=10)
        assert result.stdout == "hi\n" and result.exit_code == 0  # folders we made are the sandbox user's
        assert box.read_file("/workspace/deep/dir/f.py") == b"ok\n"
        assert box.read_file("deep/dir/f.py") == b"ok\n"
        with pytest.raises(FileNotFoundError):
            box.read_file("/workspace/missing")
    finally:
        box.destroy()


def test_grader_folder_is_hidden_until_copy_in_then_read_only(backend, tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("print('graded')\n")
    box = backend.create()
    try:
        assert box.exec("ls /grader", timeout_s=10).exit_code != 0
        box.copy_in(tmp_path, "/grader/tests")
        assert box.exec("python3 /grader/tests/test_x.py", timeout_s=10).stdout == "graded\n"
        assert box.exec("touch /grader/tests/y", timeout_s=10).exit_code != 0
    finally:
        box.destroy()


def test_timeout_reports_137_and_the_sandbox_keeps_working(backend) -> None:
    box = backend.create()
    try:
        result = box.exec("echo before; sleep 30", timeout_s=1)
        assert result.timed_out and result.exit_code == 137 and result.stdout == "before\n"
        assert box.exec("true", timeout_s=10).exit_code == 0
    finally:
        box.destroy()


def test_a_command_that_closes_its_output_still_runs_to_the_end_and_a_bad_cwd_fails(backend) -> None:
    box = backend.create()
    try:
        result = box.exec("exec >&- 2>&-; sleep 1; echo x > /workspace/done", timeout_s=20)
        assert result.exit_code == 0 and not result.timed_out and box.read_file("done") == b"x\n"
        missing = box.exec("pwd", timeout_s=10, cwd="/nope")
        assert missing.exit_code == 1 and "/nope" in missing.stderr
    finally:
        box.destroy()


def test_quick_commands_under_load_lose_no_output(backend) -> None:
    """Four sandboxes each run a quick command 40 times while four busy loops load the cores: every answer comes
    back whole. (docker's exec_start(socket=True) lost what arrived with the response headers: 3 % came back
    empty with exit 0, which made a trial fail for the sandbox's fault.)"""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    wrong: list[tuple[int, int, str]] = []

    def run_many(k: int) -> None:
        box = backend.create(trial_id=f"quick{k}")
        try:
            for i in range(40):
                result = box.exec("echo out; echo err >&2", timeout_s=30, cwd="/tmp")
                if (result.exit_code, result.stdout, result.stderr) != (0, "out\n", "err\n"):
                    wrong.append((k, i, repr(result)[:200]))
        finally:
            box.destroy()

    try:
        threads = [threading.Thread(target=run_many, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for process in busy:
            process.kill()
    assert wrong == []


def test_destroy_is_idempotent(backend) -> None:
    """A second destroy raises nothing, leaves nothing, and touches no other sandbox (not its uid lease either)."""
    box, neighbour = backend.create(trial_id="twice"), backend.create(trial_id="neighbour")
    try:
        assert leftovers(box.id), "the check sees nothing of a live sandbox: it could not see a leak either"
        before = sorted(leftovers(neighbour.id))
        box.destroy()
        assert leftovers(box.id) == []
        box.destroy()  # must not raise
        assert leftovers(box.id) == []
        assert sorted(leftovers(neighbour.id)) == before  # the neighbour keeps its folder, uid lease, container
        assert neighbour.exec("echo alive", timeout_s=10).stdout == "alive\n"
    finally:
        neighbour.destroy()


_WORKER = """
import sys
from nightshift.contracts import SandboxSpec
from nightshift.sandbox.factory import backend_for
box = backend_for(sys.argv[1], sys.argv[2]).create(SandboxSpec(run_id="killed-run", trial_id="worker"))
print(box.id, flush=True)
box.exec("sleep 3002 & sleep 3002", timeout_s=600)
"""


def test_kill_9_of_a_worker_mid_exec_leaves_nothing_after_the_reaper(backend) -> None:
    worker = subprocess.Popen([sys.executable, "-c", _WORKER, backend.name, backend_image(backend.name)],
                              stdout=subprocess.PIPE, text=True, cwd=REPO)
    sandbox_id = worker.stdout.readline().strip()
    backend.ids.append(sandbox_id)
    deadline = time.monotonic() + 30
    while not host_processes("sleep 300[2]") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert host_processes("sleep 300[2]"), "the worker's command never started"
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    assert leftovers(sandbox_id), "a killed worker should leave something for the reaper to find"
    assert backend.reap() >= 1
    assert leftovers(sandbox_id) == []
    assert host_processes("sleep 300[2]") == []


def test_reaper_keeps_live_and_unlabelled_sandboxes(backend) -> None:
    live = backend.create(trial_id="live")
    stranger = sandbox_root() / f"{live.id[:4]}stranger"  # our prefix, but no owner record: not ours
    stranger.mkdir(parents=True)
    kept = SandboxFolder.create(f"{live.id[:4]}kept-run", SandboxSpec(run_id="kept", trial_id="k", limits=SMALL))
    owner = kept.owner_file.read_text().replace(f'"pid": {os.getpid()}', '"pid": 999999999')
    kept.owner_file.write_text(owner)  # creator "dead", but its run is one we were asked to keep
    try:
        backend.reap(keep_run_ids={"kept"})
        assert live.exec("echo alive", timeout_s=10).stdout == "alive\n"
        assert stranger.is_dir() and kept.path.is_dir()
        assert backend.reap() >= 1 and not kept.path.exists()
        assert stranger.is_dir() and live.exec("true", timeout_s=10).exit_code == 0
    finally:
        live.destroy()
        stranger.rmdir()
        kept.destroy()
