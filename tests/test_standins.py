"""Stand-in base images: what `nightshift build-image --as NAME` builds, caches, labels and refuses, and a Harbor
task written like the public ones (FROM python:3.12-slim, RUN pip install, COPY --from=ghcr.io/astral-sh/uv)
importing and validating on them.

CI cost: one small stand-in (python:3.12-slim, ~1 min the first time on this machine, then reused by its content
tag) and the distroless uv one (seconds); the fixture task's image is content-tagged too.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import docker
import pytest

from nightshift.cli.main import main
from nightshift.contracts import SandboxLimits
from nightshift.graders.images import case_sandbox_spec
from nightshift.graders.validate import validate_cases
from nightshift.sandbox import standin_build
from nightshift.sandbox.standin_build import LABEL, build_standin
from nightshift.sandbox.standins import CATALOGUE, find_standin, known_names, normalise, standin_for
from nightshift.suites import load_cases
from nightshift.suites.harbor import import_harbor_tasks
from nightshift.suites.harbor.environment import resolve_bases
from tests.sandbox_support import BACKENDS, make_backend

FIXTURES = Path(__file__).parent / "fixtures" / "harbor-standins"


def test_an_unknown_base_is_refused_with_the_known_ones(capsys) -> None:
    assert main(["build-image", "--as", "golang:1.23-bookworm"]) == 2
    said = capsys.readouterr().err
    assert "--as 'golang:1.23-bookworm': no stand-in for this image" in said
    assert all(name in said for name in ("python:3.12-slim", "ubuntu:24.04", "ghcr.io/astral-sh/uv"))
    with pytest.raises(ValueError, match="python:3.11-slim-bookworm"):
        standin_for("python:3.13-slim")  # no Python 3.13 here: refused, never silently a 3.11


def test_registry_spellings_of_one_image_find_the_same_stand_in() -> None:
    python = find_standin("python:3.12-slim")
    assert python is not None and python.python == "3.12"
    assert find_standin("docker.io/library/python:3.12-slim-bookworm") is python
    assert find_standin("ghcr.io/astral-sh/uv") is find_standin("ghcr.io/astral-sh/uv:latest") is not None
    assert normalise("ubuntu") == "ubuntu:latest" and find_standin("ubuntu") is None  # latest moves: not claimed
    assert len(known_names()) == len(set(map(normalise, known_names()))) == sum(len(s.names) for s in CATALOGUE)


@pytest.fixture(scope="module")
def client():
    make_backend("docker")  # the engine, root and the base image: fail (CI) or skip with the reason
    return docker.from_env()


@pytest.fixture(scope="module")
def python_standin(client):
    return build_standin("python:3.12-slim")


def test_the_python_stand_in_has_the_real_paths_env_and_says_its_python_is_not_3_12(client, python_standin) -> None:
    image = client.images.get(python_standin.image_id)
    config = image.attrs["Config"]
    env = dict(item.split("=", 1) for item in config["Env"])
    assert env["PATH"].startswith("/usr/local/bin:") and env["LANG"] == "C.UTF-8"
    assert config["WorkingDir"] in ("", "/") and config["User"] in ("", "root", "0:0") and config["Cmd"] == ["python3"]
    assert "HOME" not in env  # the sandbox image's HOME=/tmp must not leak into a registry look-alike
    assert image.labels[LABEL] == "python:3.12-slim" and python_standin.tag in image.tags
    assert python_standin.tag.endswith(image.labels["org.nightshift.standin-key"])
    assert set(python_standin.tagged) == {"python:3.12-slim", "python:3.12-slim-bookworm"}
    # loud, not silent: Debian has 3.11, and the label and the record both say so first
    assert python_standin.differs[0].startswith(f"PYTHON {python_standin.python_version}, NOT 3.12")
    assert image.labels["org.nightshift.standin-differs"].startswith("PYTHON 3.11")
    script = ("for c in python python3 pip pip3; do command -v $c; done; "
              "python -c 'import platform, sys; print(platform.python_version(), sys.executable)'; "
              "python -m venv /tmp/v && /tmp/v/bin/pip --version; "
              "cat /usr/lib/python3*/EXTERNALLY-MANAGED 2>/dev/null || echo not-managed")
    probe = client.containers.run(image.id, ["sh", "-c", script], remove=True, network_mode="none").decode().split()
    assert probe[:4] == ["/usr/local/bin/python", "/usr/local/bin/python3", "/usr/local/bin/pip",
                         "/usr/local/bin/pip3"]
    assert probe[4] == env["PYTHON_VERSION"] == python_standin.python_version and probe[5] == "/usr/local/bin/python"
    assert "/tmp/v/lib/python3.11/site-packages/pip" in probe and probe[-1] == "not-managed"


def test_a_stand_in_is_rebuilt_only_when_its_recipe_changes(client, python_standin, capsys) -> None:
    again = build_standin("python:3.12-slim")
    assert again.image_id == python_standin.image_id and "recipe unchanged" in capsys.readouterr().err
    uv = standin_for("ghcr.io/astral-sh/uv")
    first = build_standin("ghcr.io/astral-sh/uv")
    # a changed recipe under a test name only: the real names must keep pointing at the real stand-in
    changed = uv.model_copy(update={"name": "nightshift-test/uv:changed", "aliases": []})
    rebuilt = standin_build._build(client, changed, standin_build.image_cache(), None, force=False)
    try:
        assert rebuilt.key != first.key and rebuilt.image_id != first.image_id
        assert client.containers.run(rebuilt.image_id, ["--version"], remove=True).decode().startswith("uv 0.")
        assert rebuilt.tagged == ["nightshift-test/uv:changed"]
        assert client.images.get("ghcr.io/astral-sh/uv:latest").id == first.image_id
    finally:  # the image cache is the machine's: leave no test build behind in it
        client.images.remove(rebuilt.tag, force=True)
        client.images.remove("nightshift-test/uv:changed", force=True)
        (standin_build.image_cache() / "standins" / f"{rebuilt.tag.split(':', 1)[1]}.json").unlink()


def test_a_name_held_by_a_real_image_is_not_retagged(client, python_standin) -> None:
    real = client.images.get(python_standin.base_image_id)  # the Debian root: an image with no stand-in label
    real.tag("nightshift-test/real", "1")
    try:
        fake = standin_for("python:3.12-slim").model_copy(update={"name": "nightshift-test/real:1", "aliases": []})
        assert standin_build._tag_names(client, client.images.get(python_standin.image_id), fake) == []
        assert client.images.get("nightshift-test/real:1").id == real.id
    finally:
        client.images.remove("nightshift-test/real:1")


def test_copy_from_an_image_is_resolved_and_a_stage_is_left_alone(client, python_standin, tmp_path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("FROM python:3.12-slim AS builder\nRUN true\nFROM python:3.12-slim\n"
                          "COPY --from=builder /etc/hostname /a\nCOPY --from=0 /etc/hostname /b\n"
                          "COPY --chown=0:0 --from=ghcr.io/astral-sh/uv:latest /uv /uvx /bin/\n")
    used: dict[str, dict] = {}
    text, bases = resolve_bases(client, dockerfile, {}, used)
    uv = standin_for("ghcr.io/astral-sh/uv").name
    assert text.count(f"FROM {python_standin.image_id}") == 2 and "USER 0:0" not in text  # stand-ins are root
    assert "--from=builder " in text and "--from=0 " in text
    assert f"--chown=0:0 --from={bases[uv]} /uv" in text and set(used) == {"python:3.12-slim", uv}


@pytest.fixture(scope="module")
def imported(client, python_standin, tmp_path_factory):
    """The public-style task imported with no --map-image at all: its registry names meet the stand-ins."""
    out = tmp_path_factory.mktemp("standins") / "suite"
    result = import_harbor_tasks(FIXTURES, out, name="standins")
    assert result.refused == {} and result.imported == ["invoice-due-dates"]
    return out, {c.id: c for c in load_cases(out)}


def test_the_imported_case_names_each_stand_in_it_used(imported, python_standin) -> None:
    out, _ = imported
    meta = tomllib.loads((out / "invoice-due-dates" / "case.toml").read_text())
    used = meta["source"]["standins"]
    assert set(used) == {"python:3.12-slim", "ghcr.io/astral-sh/uv:latest"}
    assert used["python:3.12-slim"]["image"] == python_standin.image_id == meta["source"]["bases"]["python:3.12-slim"]
    assert used["python:3.12-slim"]["differs"][0].startswith("PYTHON 3.11")
    assert used["ghcr.io/astral-sh/uv:latest"]["standin"] == "ghcr.io/astral-sh/uv:latest"
    suite = tomllib.loads((out / "suite.toml").read_text())
    assert suite["harbor"]["standins"]["python:3.12-slim"] == python_standin.image_id


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_the_public_style_task_validates_on_the_stand_ins(imported, python_standin, backend_name) -> None:
    _, cases = imported
    case = cases["invoice-due-dates"]
    backend = make_backend(backend_name)
    sandbox = backend.create(case_sandbox_spec(case, "probe", f"standin-{backend_name}", SandboxLimits()))
    try:  # what RUN pip install and COPY --from put in the image is there in the sandbox
        probe = sandbox.exec("uv --version; command -v uvx; python -c 'import dateutil, pytest; print(\"ok\")'",
                             timeout_s=30)
    finally:
        sandbox.destroy()
    assert probe.exit_code == 0 and "/bin/uvx" in probe.stdout and probe.stdout.strip().endswith("ok"), probe.stderr
    result = validate_cases([case], backend, repeats=1)
    (check,) = result.checks
    assert check.ok, check.problems
    assert check.oracle.f2p == (1, 1) and check.empty.f2p == (0, 1)  # the fix passes, the untouched bug fails
    assert f"Python {python_standin.python_version}" in result.record.cases[case.id].outputs["oracle/harbor"]

