"""Image pinning: the docker backend records an image id and refuses a name that resolves elsewhere."""

from __future__ import annotations

import contextlib
import io
import tarfile
from pathlib import Path

import pytest

from nightshift.experiment.config import Experiment, SandboxSettings, Variant
from nightshift.experiment.manifest import build_manifest
from nightshift.sandbox.docker_image import ImagePinError, split_pin
from nightshift.sandbox.images import latest_build
from tests.host_support import unavailable
from tests.sandbox_support import NO_IMAGE, Tracked, make_backend

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def docker_backend():
    return make_backend("docker")


@pytest.fixture(scope="module")
def other_image(docker_backend):
    """A second, tiny image: the id a moved tag would point to."""
    blob = io.BytesIO()
    with tarfile.open(fileobj=blob, mode="w") as tar:
        info = tarfile.TarInfo("hello")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"hi"))
    client = docker_backend.client
    client.api.import_image_from_data(blob.getvalue(), repository="nightshift-test/other", tag="1")
    yield client.images.get("nightshift-test/other:1").id
    import docker

    for tag in ("nightshift-test/other:1", "nightshift-test/moving:1"):
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(tag)


def test_split_pin_forms() -> None:
    digest = "sha256:" + "a" * 64
    assert split_pin(digest) == (digest, digest)
    assert split_pin(f"nightshift/sandbox:bookworm@{digest}") == ("nightshift/sandbox:bookworm", digest)
    assert split_pin("nightshift/sandbox:bookworm") == ("nightshift/sandbox:bookworm", None)
    with pytest.raises(ImagePinError, match="64 hex"):
        split_pin("nightshift/sandbox@sha256:short")


def test_identity_is_the_image_id_and_the_manifest_records_it(docker_backend, builtin_cases) -> None:
    image_id = docker_backend.image_id
    assert docker_backend.identity() == f"docker:{image_id}"
    exp = Experiment(name="d", variants=[Variant(name="a", model="m")],
                     sandbox=SandboxSettings(backend="docker", image=image_id))
    manifest = build_manifest(exp, builtin_cases[:1], {}, "simulator", docker_backend.identity(), "g/1")
    assert manifest.sandbox_identity == f"docker:{image_id}" and manifest.sandbox_image == image_id


def test_a_name_pinned_to_another_id_is_refused(docker_backend, other_image) -> None:
    from nightshift.sandbox.docker_backend import DockerBackend

    assert DockerBackend(f"nightshift-test/other:1@{other_image}").image_id == other_image
    with pytest.raises(ImagePinError, match="refusing to run a different image"):
        DockerBackend(f"nightshift-test/other:1@{docker_backend.image_id}")
    with pytest.raises(ImagePinError, match="no such image"):
        DockerBackend("sha256:" + "0" * 64)
    with pytest.raises(ImagePinError, match="build one"):
        DockerBackend("host")


def test_a_tag_moved_during_the_run_is_refused_and_never_used(docker_backend, other_image) -> None:
    from nightshift.sandbox.docker_backend import DockerBackend

    client = docker_backend.client
    client.images.get(docker_backend.image_id).tag("nightshift-test/moving", "1")
    backend = Tracked(DockerBackend("nightshift-test/moving:1"))
    client.images.get(other_image).tag("nightshift-test/moving", "1")
    with pytest.raises(ImagePinError, match="moved"):
        backend.identity()
    box = backend.create()
    try:
        assert client.containers.get(box.id).image.id == docker_backend.image_id
    finally:
        box.destroy()


def test_image_build_is_skipped_when_nothing_changed() -> None:
    build = latest_build()
    if build is None:
        unavailable("bubblewrap", NO_IMAGE)
    from nightshift.sandbox import base_image as script
    stamp = build.rootfs.stat().st_mtime_ns
    again = script.build(build.rootfs.parent.parent, force=False, with_docker=False)
    assert again.key == build.key and again.rootfs == build.rootfs
    assert build.rootfs.stat().st_mtime_ns == stamp
    assert script.content_key("x") == script.content_key("x") != script.content_key("y")


def test_bubblewrap_identity_follows_the_root_filesystem() -> None:
    build = latest_build()
    if build is None:
        unavailable("bubblewrap", NO_IMAGE)
    from nightshift.sandbox.bubblewrap import BubblewrapBackend

    built, host = BubblewrapBackend(str(build.rootfs)), BubblewrapBackend("host")
    assert built.identity() == built.identity() != host.identity()
