"""Protected splits without a night: sealing at rest, the refusal without a key, the network rule, the budget
counted from the audit log, and the audit chain catching an edit, a deletion and a cut tail."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from nightshift.cli import main
from nightshift.errors import SuiteError
from nightshift.experiment.config import SplitGrant
from nightshift.models import Sidecar
from nightshift.splits import SplitAccessError
from nightshift.splits.audit import AuditBroken, append, verify
from nightshift.splits.grants import check_budgets, experiment_budgets, network_problems, unsealed_warning
from nightshift.suites import load_cases
from nightshift.suites.loader import open_case, suite_budgets
from nightshift.suites.sealed import SEALED_BLOB
from tests.splits_support import HELD_OUT_CASE, PUBLIC_CASE, canaried_suite, canary

ENV = "NIGHTSHIFT_SPLIT_KEY_HELDOUT"


@pytest.fixture
def sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, str]:
    """(sealed suite, canary, key): sealed in place by the CLI with a new key file."""
    monkeypatch.delenv(ENV, raising=False)
    mark = canary()
    suite = canaried_suite(tmp_path, mark)
    plain_hash = load_cases(suite, [HELD_OUT_CASE])[0].content_hash
    key_file = tmp_path / "keys" / "heldout.key"
    assert main(["seal", str(suite), "--split", "heldout", "--key-file", str(key_file)]) == 0
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    monkeypatch.delenv(ENV, raising=False)  # seal set it for its own check
    case_dir = suite / HELD_OUT_CASE
    assert sorted(p.name for p in case_dir.iterdir()) == [SEALED_BLOB, "sealed.toml"]
    assert plain_hash in (case_dir / "sealed.toml").read_text()
    return suite, mark, key_file.read_text().strip()


def _bytes_under(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_a_sealed_case_keeps_nothing_in_the_clear_and_opens_only_with_its_key(sealed, monkeypatch) -> None:
    suite, mark, key = sealed
    assert mark.encode() not in _bytes_under(suite)
    with pytest.raises(SplitAccessError) as refused:
        load_cases(suite)
    message = str(refused.value)
    assert "heldout" in message and HELD_OUT_CASE in message and ENV in message and PUBLIC_CASE not in message
    assert [c.id for c in load_cases(suite, [PUBLIC_CASE])] == [PUBLIC_CASE]  # public cases need no grant

    monkeypatch.setenv(ENV, Fernet.generate_key().decode())
    with pytest.raises(SplitAccessError, match="does not open it"):
        load_cases(suite)

    monkeypatch.setenv(ENV, key)
    case = next(c for c in load_cases(suite) if c.id == HELD_OUT_CASE)
    assert case.sealed and case.instruction == "" and case.label.startswith("heldout-") and HELD_OUT_CASE not in \
        case.label
    with open_case(case) as opened:
        assert mark in opened.instruction and mark in (opened.root / "solution/solve.sh").read_text()
        assert opened.content_hash == case.content_hash and stat.S_IMODE(opened.root.stat().st_mode) == 0o700
        private = opened.root
    assert not private.exists()  # the plaintext is gone when the block ends

    blob = suite / HELD_OUT_CASE / SEALED_BLOB
    token = bytearray(blob.read_bytes())
    token[60] ^= 1
    blob.write_bytes(bytes(token))
    with pytest.raises(SplitAccessError, match="changed since it was sealed"):
        load_cases(suite)


def test_check_and_run_refuse_a_sealed_case_without_its_key_naming_split_case_and_fix(sealed, tmp_path,
                                                                                      capsys) -> None:
    suite, _, _ = sealed
    exp = tmp_path / "exp.yaml"
    exp.write_text(f"name: x\nsuites: [{suite}]\nvariants: [{{name: a, model: sim-strong}}]\nallow_unvalidated: true\n"
                   f"output_dir: out\n")
    assert main(["check", str(exp)]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert f"need the heldout key: {HELD_OUT_CASE}" in out and ENV in out and "splits.<split>.key_secret" in out
    assert not (tmp_path / "out").exists()  # check writes nothing

    env = {k: v for k, v in os.environ.items() if k != ENV}
    run = subprocess.run([str(Path(sys.executable).parent / "nightshift"), "run", "--ephemeral", str(exp)], env=env,
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 2 and f"need the heldout key: {HELD_OUT_CASE}" in " ".join(run.stdout.split())
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["audit.jsonl", "audit.jsonl.head"]  # no run folder
    (refusal,) = verify(tmp_path / "out" / "audit.jsonl")
    assert refusal.data["outcome"] == {"refused": "no grant"} and refusal.data["splits"] == {"heldout": []}


def test_a_protected_case_never_meets_a_network(builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id == HELD_OUT_CASE)
    held = case.model_copy(update={"split": "commercial", "sidecars": [Sidecar(name="db", image="sha256:1")]})
    public = case.model_copy(update={"sidecars": [Sidecar(name="db", image="sha256:1")]})
    assert network_problems([public], "docker", True) == []
    problems = network_problems([held, public], "docker", True)
    assert len(problems) == 1 and held.label in problems[0] and "sidecars" in problems[0]
    plugin = network_problems([case.model_copy(update={"split": "heldout"})], "my.pkg:Cloud", False)
    assert "network_free" in plugin[0] and "my.pkg:Cloud" in plugin[0]


def _started(log: Path, run_id: str, version: str) -> None:
    append(log, "started", run_id=run_id, splits={"heldout": ["heldout-abc"]}, model_versions={"a": version},
           outcome={"started": 1})


def test_the_budget_counts_runs_per_model_version_from_the_audit_log(tmp_path, builtin_cases) -> None:
    log = tmp_path / "audit.jsonl"
    case = next(c for c in builtin_cases if c.id == HELD_OUT_CASE).model_copy(update={"split": "heldout"})
    rules = experiment_budgets({"heldout": SplitGrant.model_validate({"budget": {"runs": 2, "days": 7}})},
                               tmp_path / "exp.yaml")
    _started(log, "run1", "m-v1")
    _started(log, "run1", "m-v1")  # a resumed run counts once
    _started(log, "run2", "m-v2")  # another version has its own budget
    check_budgets([case], rules, {"a": "m-v1"}, log)
    _started(log, "run3", "m-v1")
    with pytest.raises(SplitAccessError) as spent:
        check_budgets([case], rules, {"a": "m-v1"}, log)
    message = str(spent.value)
    assert "field 'splits.heldout.budget'" in message and "'m-v1'" in message and "run1, run3" in message
    check_budgets([case], rules, {"a": "m-v2"}, log)
    check_budgets([case], rules, {"a": "m-v1"}, log, run_id="run3")  # its own resume
    public = case.model_copy(update={"split": "public"})
    check_budgets([public], rules, {"a": "m-v1"}, log)  # no protected case: no budget

    suite = tmp_path / "suite"  # the split owner's budget in suite.toml holds whatever the experiment says
    suite.mkdir()
    (suite / "suite.toml").write_text('name = "s"\n[budget.heldout]\nruns = 1\ndays = 30\n')
    with pytest.raises(SplitAccessError, match=r"suite.toml: field 'budget.heldout': split 'heldout': budget of 1"):
        check_budgets([case], suite_budgets(suite), {"a": "m-v2"}, log)
    (suite / "suite.toml").write_text('name = "s"\n[budget.public]\nruns = 1\n')
    with pytest.raises(SuiteError, match="field 'budget.public': only 'heldout' and 'commercial'"):
        suite_budgets(suite)
    (suite / "suite.toml").write_text('name = "s"\n[budget.heldout]\nruns = 0\n')
    with pytest.raises(SuiteError, match="field 'budget.heldout.runs'"):
        load_cases(suite)


def test_the_audit_chain_shows_an_edit_a_deletion_and_a_cut_tail(tmp_path, capsys) -> None:
    log = tmp_path / "audit.jsonl"
    for n in range(4):
        _started(log, f"run{n}", "m-v1")
    assert [e.data["seq"] for e in verify(log)] == [1, 2, 3, 4]
    assert verify(log)[0].data["who"]["user"]
    assert main(["audit", str(tmp_path)]) == 0 and "4 lines, chain verified" in capsys.readouterr().out
    lines = log.read_text().splitlines()

    edited = json.loads(lines[1])
    edited["model_versions"] = {"a": "m-v9"}
    log.write_text("\n".join([lines[0], json.dumps(edited, sort_keys=True), *lines[2:]]) + "\n")
    with pytest.raises(AuditBroken) as broken:
        verify(log)
    assert broken.value.line == 3  # the line after the edited one no longer chains to it

    log.write_text("\n".join([lines[0], *lines[2:]]) + "\n")  # line 2 deleted
    assert main(["audit", str(log)]) == 1
    assert "line 2:" in capsys.readouterr().out

    log.write_text("\n".join(lines[:3]) + "\n")  # the last line cut: the head file says so
    with pytest.raises(AuditBroken, match="its tail was cut"):
        verify(log)
    log.write_text("\n".join(lines) + "\n")
    assert len(verify(log)) == 4
    assert os.stat(log).st_mode & 0o077 == 0  # the log is the owner's only


def test_a_protected_case_in_a_plain_folder_is_named_as_unsealed_by_count(builtin_cases) -> None:
    held = [c for c in builtin_cases if c.protected]  # the built-in suite holds some out, in the clear
    warning = unsealed_warning(builtin_cases)
    assert held and warning and warning.startswith(f"{len(held)} heldout cases are stored in the clear")
    assert not any(c.id in warning for c in held)
    assert unsealed_warning([c for c in builtin_cases if not c.protected]) is None


def test_seal_out_writes_a_sealed_copy_whose_commercial_key_is_its_own(tmp_path, monkeypatch, capsys) -> None:
    for split in ("heldout", "commercial"):
        monkeypatch.delenv(f"NIGHTSHIFT_SPLIT_KEY_{split.upper()}", raising=False)
    mark = canary()
    suite = canaried_suite(tmp_path, mark, split="commercial")
    out = tmp_path / "sealed-copy"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert main(["seal", str(suite), "--split", "heldout"]) == 2  # no held-out case to seal
    assert "no unsealed case has split 'heldout'" in " ".join(capsys.readouterr().out.split())
    assert main(["seal", str(suite), "--split", "commercial", "--out", str(out)]) == 0
    key_file = tmp_path / "config" / "nightshift" / "keys" / "commercial.key"
    assert "(new, mode 0600)" in " ".join(capsys.readouterr().out.split())
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert (suite / HELD_OUT_CASE / "instruction.md").is_file()  # the source is left as it was
    assert (out / PUBLIC_CASE / "case.toml").is_file() and mark.encode() not in _bytes_under(out)
    monkeypatch.delenv("NIGHTSHIFT_SPLIT_KEY_COMMERCIAL")  # seal set it for its own check
    monkeypatch.setenv("NIGHTSHIFT_SPLIT_KEY_HELDOUT", key_file.read_text().strip())  # another split's grant
    with pytest.raises(SplitAccessError, match="need the commercial key"):
        load_cases(out)
    monkeypatch.setenv("NIGHTSHIFT_SPLIT_KEY_COMMERCIAL", key_file.read_text().strip())
    case = next(c for c in load_cases(out) if c.id == HELD_OUT_CASE)
    assert case.split == "commercial" and case.label.startswith("commercial-")
    assert main(["seal", str(out), "--split", "commercial"]) == 2  # nothing left to seal: said, not redone


def test_the_private_folder_for_plaintext_is_refused_when_others_could_enter_it(tmp_path, monkeypatch) -> None:
    from nightshift.errors import StorageError
    from nightshift.scratch import private_root

    fresh = tmp_path / "private"
    monkeypatch.setenv("NIGHTSHIFT_PRIVATE_SCRATCH", str(fresh))
    assert private_root() == fresh and stat.S_IMODE(fresh.stat().st_mode) == 0o700
    fresh.chmod(0o755)
    with pytest.raises(StorageError, match="mode 0o755"):
        private_root()
    link = tmp_path / "planted"
    link.symlink_to(fresh)
    monkeypatch.setenv("NIGHTSHIFT_PRIVATE_SCRATCH", str(link))
    with pytest.raises(StorageError, match="a link, another owner"):
        private_root()


def test_a_case_that_would_not_come_back_the_same_is_not_sealed_and_keeps_its_plaintext(tmp_path, monkeypatch,
                                                                                        capsys) -> None:
    monkeypatch.delenv(ENV, raising=False)
    suite = canaried_suite(tmp_path, canary())
    case = suite / HELD_OUT_CASE
    (case / "workspace" / "outside").symlink_to("/etc/hostname")  # a link out of the case folder
    before = sorted(p.name for p in case.iterdir())
    assert main(["seal", str(suite), "--split", "heldout", "--key-file", str(tmp_path / "k.key")]) == 2
    assert "nothing was changed" in " ".join(capsys.readouterr().out.split())
    assert sorted(p.name for p in case.iterdir()) == before and (case / "instruction.md").is_file()
