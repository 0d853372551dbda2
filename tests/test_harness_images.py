"""Derived images: a failing install shows its output and caches nothing; a good one is built once, reused."""

from __future__ import annotations

import pytest

from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses.derived_image import InstallError, content_key
from nightshift.harnesses.pins import derive
from nightshift.sandbox.images import image_cache
from tests.sandbox_support import BACKENDS, make_backend


@pytest.mark.parametrize("name", BACKENDS)
def test_failing_install_shows_output_and_is_not_cached(name: str, tmp_path, monkeypatch) -> None:
    base = make_backend(name)  # the base image from the shared cache; derived layers land in tmp_path
    monkeypatch.setenv("NIGHTSHIFT_IMAGE_CACHE", str(tmp_path))
    assert name != "bubblewrap" or str(base.rootfs) != "/"  # the built root, never the host's (sandbox_support)
    spec = HarnessSpec(kind="command", run="true", install=["echo step one", "echo about to fail >&2; exit 3"])
    with pytest.raises(InstallError) as err:
        derive(base, spec)
    message = str(err.value)
    assert "install command 2 failed with exit code 3" in message and "about to fail" in message
    assert "nothing was cached" in message
    assert not list((image_cache() / "derived").glob("*/rootfs"))
    if name == "docker":
        import docker

        key = content_key(f"docker:{base.image_id}", spec.install)
        with pytest.raises(docker.errors.ImageNotFound):
            docker.from_env().images.get(f"nightshift/derived:{key}")

    good = HarnessSpec(kind="command", run="cat /opt/marker", install=["echo built > /opt/marker"])
    derived, first = derive(base, good)
    again, second = derive(base, good)
    assert first.built and not second.built and first.image == second.image
    assert derived.identity() == again.identity() != base.identity()
    if name == "docker":
        docker.from_env().images.remove(first.image, force=True)  # ours: made by this test
