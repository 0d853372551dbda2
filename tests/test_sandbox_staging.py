"""A sandbox folder appears only with its owner record; staging folders a kill left behind are reaped."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from nightshift.contracts import SandboxSpec
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.sandbox.folder import STAGING_GRACE_S, sandbox_root


def test_created_folder_has_owner_and_no_staging_is_left() -> None:
    sandbox = BubblewrapBackend("host").create(SandboxSpec(run_id="r", trial_id="staging-ok"))
    try:
        folder = sandbox_root() / sandbox.id
        assert json.loads((folder / "owner.json").read_text())["trial_id"] == "staging-ok"
        assert list(sandbox_root().glob(f".{sandbox.id}*")) == []
    finally:
        sandbox.destroy()


def test_reaper_removes_abandoned_staging_but_not_a_fresh_one() -> None:
    root = sandbox_root()
    root.mkdir(parents=True, exist_ok=True)
    old = root / ".nsb-deadbeef0000-aaaaaa.creating"
    fresh = root / ".nsb-deadbeef0001-bbbbbb.creating"
    stranger = root / ".not-ours.creating"
    for path in (old, fresh, stranger):
        path.mkdir()
    past = time.time() - STAGING_GRACE_S - 5
    os.utime(old, (past, past))
    os.utime(stranger, (past, past))
    try:
        BubblewrapBackend("host").reap()
        assert not old.exists()
        assert fresh.exists()  # may still be a live create in progress
        assert stranger.exists()  # not ours: never touched
    finally:
        for path in (fresh, stranger):
            if path.exists():
                path.rmdir()


def test_staging_with_a_dead_owner_is_reaped_at_once(tmp_path: Path) -> None:
    root = sandbox_root()
    root.mkdir(parents=True, exist_ok=True)
    staging = root / ".nsb-deadbeef0002-cccccc.creating"
    staging.mkdir()
    (staging / "owner.json").write_text(json.dumps({"run_id": "r", "trial_id": "t", "host": os.uname().nodename,
                                                    "pid": 2**22 - 1, "pid_start": "1"}))
    BubblewrapBackend("host").reap()
    assert not staging.exists()


def test_destroy_leaves_nothing_and_a_half_deleted_folder_is_reaped() -> None:
    sandbox = BubblewrapBackend("host").create(SandboxSpec(run_id="r", trial_id="deleting"))
    sandbox.destroy()
    assert list(sandbox_root().glob(f"*{sandbox.id}*")) == []
    half = sandbox_root() / ".nsb-deadbeef0003-dddddd.deleting"
    (half / "disk").mkdir(parents=True)  # what a kill during rmtree leaves: no owner record any more
    BubblewrapBackend("host").reap()
    assert not half.exists()
