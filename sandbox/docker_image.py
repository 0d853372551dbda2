"""Resolve the docker backend's ``sandbox.image`` to one image id, and refuse it when it moved.

Accepted forms (the id is what the manifest records, and every container of the run uses the id,
never the name, so a tag that moves during the run changes nothing):

- ``sha256:<id>``: an image id, e.g. what nightshift build-image prints.
- ``name:tag@sha256:<hex>``: a name pinned to an image id or a registry digest; refused when the
  name now resolves to another image. This is how a registry image is used by digest.
- ``name:tag``: resolved once at start; the id it had then is the run's pin.
"""

from __future__ import annotations

import re

import docker

from nightshift.errors import ConfigurationError

_HEX = re.compile(r"^sha256:[0-9a-f]{64}$")


class ImagePinError(ConfigurationError, ValueError):
    """The configured image is missing, or its name resolves to a different id than its pin."""


def split_pin(image: str) -> tuple[str, str | None]:
    """``'name:tag@sha256:x'`` -> ('name:tag', 'sha256:x'); an id alone is its own pin."""
    if _HEX.match(image):
        return image, image
    name, at, pin = image.partition("@")
    if at and not _HEX.match(pin):
        raise ImagePinError(f"sandbox.image {image!r}: the part after '@' must be sha256:<64 hex digits>")
    return name, pin or None


def resolve_image(client, image: str) -> str:  # client: docker.DockerClient
    """The local image id ``image`` names; pulls a registry digest once if it is not here yet."""

    if image in ("", "host"):
        raise ImagePinError("sandbox.image: the docker backend needs an image id or name@sha256:...; "
                            "build one with nightshift build-image (it prints the id)")
    name, pin = split_pin(image)
    if pin is not None and pin != name:
        try:  # a registry digest names exactly one image: nothing more to check
            return client.images.get(f"{_repository(name)}@{pin}").id
        except (docker.errors.ImageNotFound, docker.errors.APIError):
            pass  # not a registry digest we hold: the pin must then be the id of the named image
    try:
        found = client.images.get(name)
    except docker.errors.ImageNotFound:
        found = _pull(client, image, name, pin)
    except docker.errors.APIError as exc:
        raise ImagePinError(f"sandbox.image {image!r}: {exc.explanation}") from exc
    digests = {d.partition("@")[2] for d in found.attrs.get("RepoDigests") or []}
    if pin is not None and pin != found.id and pin not in digests:
        raise ImagePinError(f"sandbox.image {image!r}: {name} now resolves to image {found.id}, not the "
                            f"pinned {pin}; refusing to run a different image. Restore the pinned image "
                            f"(docker load / nightshift build-image) or update the pin in the experiment file")
    return found.id


def _pull(client, image: str, name: str, pin: str | None):
    hint = "build it with nightshift build-image, or docker load / docker pull it first"
    if pin is None or name.startswith("sha256:") or pin == name:
        raise ImagePinError(f"sandbox.image {image!r}: no such image on this docker engine; {hint}")
    repository = _repository(name)
    try:
        return client.images.pull(f"{repository}@{pin}")
    except docker.errors.APIError as exc:
        raise ImagePinError(f"sandbox.image {image!r}: not on this engine and pulling "
                            f"{repository}@{pin} failed ({exc.explanation}); {hint}") from exc


def _repository(name: str) -> str:
    """'registry:5000/team/img:tag' -> 'registry:5000/team/img' (a port is not a tag)."""
    return name.rsplit(":", 1)[0] if ":" in name.rsplit("/", 1)[-1] else name
