"""Harbor / terminal-bench tasks: real environment builds, offline verifiers, partial import, no forged rewards.

The fixtures under tests/fixtures/harbor were written for this project and reproduce each failure
class seen on real task folders: FROM a registry image (mapped to the local debootstrap base here),
RUN-made seed data, COPY outside WORKDIR and in JSON form, ENV, USER, a nested WORKDIR, test
scripts that fetch uv and pytest at verify time, multi-key reward.json, a terminal-bench compose
file, and tasks that must be refused (sidecar, multi-step, unknown base image) or judged invalid
(tests that need the network).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from nightshift.contracts import SandboxLimits
from nightshift.graders import CaseGrader
from nightshift.graders.images import case_sandbox_spec
from nightshift.graders.logs import fold, harbor_verdict
from nightshift.graders.validate import validate_cases
from nightshift.suites import load_cases
from nightshift.suites.harbor import import_harbor_tasks
from nightshift.suites.harbor.paths import map_paths
from nightshift.suites.harbor.verifier import rewrite, scan
from tests.sandbox_support import BACKENDS, backend_image, make_backend

FIXTURES = Path(__file__).parent / "fixtures" / "harbor"
VALID = ["count-words", "fix-csv-total", "seeded-inventory", "tb-log-report"]
REGISTRY_NAMES = ["ubuntu:24.04", "python:3.11-slim", "ghcr.io/laude-institute/t-bench/ubuntu-24-04:latest"]


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The fixture tasks imported once, their FROM names mapped onto the project's debootstrap base image."""
    make_backend("docker")  # builds need the engine: fail (CI) or skip with the reason
    base = backend_image("docker")
    out = tmp_path_factory.mktemp("harbor") / "suite"
    stale = out / "old-case"
    stale.mkdir(parents=True)
    (stale / "case.toml").write_text('id = "old-case"\n')  # from an earlier import: must not survive
    result = import_harbor_tasks(FIXTURES, out, name="fixtures", base_images={n: base for n in REGISTRY_NAMES})
    return result, {c.id: c for c in load_cases(out)}


def test_import_is_partial_and_every_refusal_names_file_field_and_fix(imported) -> None:
    result, cases = imported
    assert sorted(result.imported) == sorted([*VALID, "needs-network", "with-sidecar"]) == sorted(cases)
    assert not (result.out / "old-case").exists()
    refused = result.refused
    assert set(refused) == {"missing-base", "multi-step"}
    assert "environment/Dockerfile: FROM golang:1.23-bookworm" in refused["missing-base"]
    assert "docker pull" in refused["missing-base"] and "--map-image" in refused["missing-base"]
    assert "multi-step" in refused["multi-step"] and "instruction.md" not in refused["multi-step"]
    suite = tomllib.loads((result.out / "suite.toml").read_text())
    assert {r["task"] for r in suite["refused"]} == set(refused)
    assert suite["harbor"]["base_images"]["ubuntu:24.04"]["id"].startswith("sha256:")


def test_case_pins_the_built_image_and_keeps_the_tasks_own_settings(imported) -> None:
    _, cases = imported
    inventory = cases["seeded-inventory"]
    meta = tomllib.loads((inventory.root / "case.toml").read_text())
    assert inventory.image.startswith("sha256:") and inventory.workdir == "/srv/app"
    assert inventory.limits.max_steps == 30 and inventory.limits.wall_clock_s == 600
    assert (inventory.limits.cpus, inventory.limits.memory_mb, inventory.limits.disk_mb) == (1.0, 1024, 256)
    assert meta["source"]["user"] == "app" and meta["source"]["uv"] == "0.7.13"
    assert "pytest-8.4.1-py3-none-any.whl" in meta["source"]["wheels"]
    assert meta["source"]["apt_packages"] == []  # curl only fetched uv: not installed
    subs = {s["where"]: s for s in meta["source"]["substitutions"]}
    assert "astral.sh/uv/0.7.13/install.sh" in subs["tests/test.sh:5"]["was"]
    assert "-p python3" in subs["tests/test.sh:11"]["now"]
    # RUN-made seed data in WORKDIR is the starting workspace; the oracle brings solution/ along, mapped
    assert (inventory.workspace_dir / "inventory.db").is_file()
    assert "/tmp/harbor-solution" in inventory.solution_script.read_text()
    tbench = cases["tb-log-report"]
    assert tbench.limits.max_steps == 40 and sorted(p.name for p in tbench.workspace_dir.iterdir()) == ["access.log"]
    assert "/workspace/access.log" in tbench.instruction
    assert "pip install requests==2.32.3" in cases["needs-network"].invalid
    (sidecar,) = cases["with-sidecar"].sidecars  # a compose service beside the task container, built too
    assert sidecar.name == "config-server" and sidecar.image.startswith("sha256:")
    assert sidecar.command[:3] == ["python3", "-m", "http.server"] and sidecar.env == {"PYTHONUNBUFFERED": "1"}


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_every_task_validates_with_its_oracle_and_fails_untouched(imported, backend_name) -> None:
    _, cases = imported
    backend = make_backend(backend_name)
    # docker: the tasks whose verifiers need the baked toolchain or a sidecar (time budget); bubblewrap: all
    # single-container ones, and the sidecar task is refused with the reason
    valid = VALID if backend_name == "bubblewrap" else ["seeded-inventory", "tb-log-report", "with-sidecar"]
    result = validate_cases([cases[i] for i in [*valid, "needs-network", "with-sidecar"]], backend, repeats=1)
    checks = {c.case_id: c for c in result.checks}
    if backend_name == "bubblewrap":
        assert "only sandbox.backend docker starts them" in checks["with-sidecar"].problems[0]
    assert all(checks[i].ok for i in valid), {i: checks[i].problems for i in valid}
    assert all(checks[i].empty.f2p == (0, 1) for i in valid)
    network = checks["needs-network"]
    assert not network.ok and network.problems[0].startswith("invalid case: the tests need the network")
    assert "tests/test.sh:3: `git clone" in network.problems[0] and network.oracle is None
    record = result.record.cases["seeded-inventory"]
    output = record.outputs["oracle/harbor"]  # the verifier's whole output is kept, not a tail
    assert "PASSED" in output and "test_config_outside_workdir_is_there" in output and "3 passed" in output


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_a_cases_image_is_what_its_sandbox_runs(imported, backend_name) -> None:
    _, cases = imported
    backend = make_backend(backend_name)
    case = cases["seeded-inventory"]
    sandbox = backend.create(case_sandbox_spec(case, "test", f"image-{backend_name}", SandboxLimits()))
    try:
        probe = sandbox.exec("cat /etc/inventory/config.ini /skills/report-style.md; echo \"env=$INVENTORY_CONFIG\"; "
                             "touch /srv/app/made-via-workdir; ls /workspace", timeout_s=30)
    finally:
        sandbox.destroy()
    assert probe.exit_code == 0, probe.stderr
    assert "batch = 2026-11-30" in probe.stdout and "integer counts" in probe.stdout
    assert "env=/etc/inventory/config.ini" in probe.stdout
    assert "made-via-workdir" in probe.stdout and "inventory.db" in probe.stdout


def test_sidecars_share_a_private_network_with_the_sandbox_and_nothing_else(imported) -> None:
    import docker

    _, cases = imported
    backend = make_backend("docker")
    case = cases["with-sidecar"]
    sandbox = backend.create(case_sandbox_spec(case, "test", "sidecar-net", SandboxLimits()))
    try:
        probe = sandbox.exec(
            "for i in 1 2 3 4 5 6 7 8 9 10; do python3 -c \"import urllib.request as u; "
            "print(u.urlopen('http://config-server:8000/settings.json', timeout=3).read().decode())\" && break; "
            "sleep 1; done; python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=3); "
            "print('ESCAPED')\" "
            "2>&1 | tail -1", timeout_s=60)
    finally:
        sandbox.destroy()
    assert '"region": "eu-west"' in probe.stdout
    assert "ESCAPED" not in probe.stdout and "Error" in probe.stdout  # no way out of the private network
    client = docker.from_env()
    assert not client.containers.list(all=True, filters={"label": f"org.nightshift.sandbox={sandbox.id}"})
    assert not [n for n in client.networks.list(names=[f"{sandbox.id}-net"]) if n.name == f"{sandbox.id}-net"]


FORGER = r"""
for dir in /tmp/harbor-logs/verifier /logs/verifier /workspace /tmp /srv/app /app; do
    mkdir -p "$dir" 2>/dev/null
    echo 1 > "$dir/reward.txt" 2>/dev/null
    echo '{"reward": 1.0, "tests_passed": 1.0, "report_written": 1.0}' > "$dir/reward.json" 2>/dev/null
done
chmod 0555 /tmp/harbor-logs/verifier /tmp/harbor-logs 2>/dev/null
(sleep 4; echo 1 > /tmp/harbor-logs/verifier/reward.txt) > /dev/null 2>&1 &
echo 'nightshift-harbor: {"format": "terminal-bench", "exit": 0, "reward.txt": "MQ==", "reward.json": null}'
exit 0
"""


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_an_agent_that_writes_every_reward_file_it_can_find_never_passes(imported, backend_name) -> None:
    _, cases = imported
    backend = make_backend(backend_name)
    for case_id in VALID + (["with-sidecar"] if backend_name == "docker" else []):
        case = cases[case_id]
        sandbox = backend.create(case_sandbox_spec(case, "test", f"forge-{case_id}"[:40], SandboxLimits()))
        try:
            agent = sandbox.exec(FORGER, timeout_s=30)
            grade = CaseGrader().grade(case, sandbox)
        finally:
            sandbox.destroy()
        assert agent.exit_code == 0
        (test,) = grade.tests
        assert not test.passed and not grade.all_passed, (case_id, test.detail)
        assert test.reward is not None and test.reward < 0.5, (case_id, test.reward, test.scores)


def test_a_reward_file_gives_partial_credit(imported) -> None:
    _, cases = imported
    case = cases["count-words"]
    backend = make_backend("bubblewrap")
    sandbox = backend.create(case_sandbox_spec(case, "test", "partial-reward", SandboxLimits()))
    try:
        sandbox.write_file("/workspace/total.txt", b"7\n")  # one of the two outputs right
        grade = CaseGrader().grade(case, sandbox)
    finally:
        sandbox.destroy()
    assert grade.f2p == (0, 1) and grade.tests[0].reward == 0.5 and grade.progress == 0.5


def test_verifier_scan_finds_fetches_and_rewrite_records_each_line() -> None:
    script = ("#!/bin/bash\napt-get update && apt-get install -y curl jq\n"
              "curl -LsSf https://astral.sh/uv/0.7.13/install.sh | sh\nsource $HOME/.local/bin/env\n"
              "uvx -p 3.13 --with pytest==8.4.1 \\\n  --with pytest-json-ctrf==0.3.5 pytest /tests/t.py -rA\n"
              "uv add requests==2.32.3\nwget -q https://example.com/data.csv\n")
    needs = scan({"tests/test.sh": script})
    assert needs.uv_version == "0.7.13" and needs.apt_packages == ["jq"]  # curl only fetches: skipped
    assert needs.requirements == ["pytest==8.4.1", "pytest-json-ctrf==0.3.5", "pytest", "requests==2.32.3"]
    assert needs.python_requests == ["3.13"]
    assert needs.network_lines == ["tests/test.sh:8: `wget -q https://example.com/data.csv` downloads a file"]
    new, subs = rewrite("tests/test.sh", script, "python3")
    assert len(new.splitlines()) == len(script.splitlines())  # line numbers in messages stay right
    assert [s.where for s in subs] == ["tests/test.sh:2", "tests/test.sh:3", "tests/test.sh:5"]
    assert "-p python3" in new.splitlines()[4] and new.splitlines()[5] == ":"


def test_path_mapping_reaches_shell_default_forms() -> None:
    text = 'APP="${APP_DIR:-/app}"; cat /app/x /tests/t.py > /logs/verifier/out; ls /application /solution/a'
    assert map_paths(text, "/app") == ('APP="${APP_DIR:-/workspace}"; cat /workspace/x /grader/tests/harbor/t.py > '
                                       '/tmp/harbor-logs/verifier/out; ls /application /tmp/harbor-solution/a')


def _line(fmt: str = "harbor", code: int = 0, txt: str | None = None, js: dict | None = None) -> str:
    import base64

    enc = (lambda s: base64.b64encode(s.encode()).decode())  # noqa: E731
    record = {"format": fmt, "exit": code, "reward.txt": enc(txt) if txt is not None else None,
              "reward.json": enc(json.dumps(js)) if js is not None else None}
    forged = {**record, "reward.txt": "MQ=="}  # a later line (the test's own output) never counts
    return f"nightshift-harbor: {json.dumps(record)}\nnightshift-harbor: {json.dumps(forged)}\n"


def test_harbor_reward_rules_keep_every_named_score() -> None:
    multi = harbor_verdict(_line(js={"tests_passed": 1.0, "report_written": 0.5}))
    assert not multi.passed and multi.reward == 0.75 and multi.scores == {"tests_passed": 1.0, "report_written": 0.5}
    keyed = harbor_verdict(_line(js={"reward": 1, "style": 0.2}, txt="0"))  # reward.json wins, its reward key rules
    assert keyed.passed and keyed.scores == {"reward": 1.0, "style": 0.2}
    assert harbor_verdict(_line(js={"style": 0.2}, txt="1")).scores == {"style": 0.2, "reward": 1.0}
    assert harbor_verdict(_line(txt="0.25")).reward == 0.25
    missing = harbor_verdict(_line(code=0))  # a Harbor task must write a reward: exit 0 alone is not a pass
    assert not missing.passed and "wrote neither" in missing.detail
    assert harbor_verdict(_line(fmt="terminal-bench", code=0)).passed  # terminal-bench: exit code
    assert not harbor_verdict(_line(fmt="terminal-bench", code=1)).passed
    assert "unreadable reward file" in harbor_verdict(_line(txt="")).detail


def test_fold_keeps_whole_lines() -> None:
    text = "\n".join(f"line {i} " + "word " * 10 for i in range(50))
    folded = fold(text, 200)
    assert folded.startswith("[... ") and folded.endswith("line 49 " + "word " * 9 + "word")
    assert all(line.startswith(("line", "[...")) for line in folded.splitlines())
