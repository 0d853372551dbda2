"""The registry bases nightshift can stand in for, and what each stand-in is known to do differently.

No registry is reachable here, so a task's ``FROM python:3.12-slim`` can only be met by a local image
built from Debian packages and PyPI wheels (sandbox/standin_build.py builds them). This module is the
catalogue: per registry name, what tasks depend on in the real image (the interpreter's paths, pip, the
ENV, WORKDIR, USER, CMD, users, tools) and the differences that are known before any build. Differences
found at build time (the Python minor Debian has) are added there. Nothing here builds or talks to docker.

To add a stand-in: one ``StandIn`` in CATALOGUE; docs/SUITES.md says what to check.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

PIP_VERSION = "25.3"  # pip >= 24.2 trusts the system CA store (truststore), as a pip in a new real image does
UV_VERSION = "0.9.30"  # the uv wheel on PyPI whose binaries the uv stand-ins carry
REAL_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"  # docker's default, the OS images' PATH
BASE_EXTRAS = ("git and procps are installed (the project's Debian base has them; the real image may not)",)


class StandIn(BaseModel):
    """One registry base as tasks see it, and what the local stand-in does differently."""

    name: str = Field(description="the registry name it stands in for, as a Dockerfile's FROM says it")
    aliases: list[str] = Field(default_factory=list, description="other names of the same real image")
    kind: Literal["python", "os", "uv"] = Field(description="python: a python:3.X-slim image; os: a distribution "
                                                            "image; uv: the distroless uv image (binaries only)")
    python: str | None = Field(None, description="the Python minor the real image has under /usr/local ('3.12')")
    wheels: list[str] = Field(default_factory=list, description="PyPI pins installed into /usr/local (pip first)")
    apt: list[str] = Field(default_factory=list, description="Debian packages installed on top of the base")
    env: dict[str, str] = Field(default_factory=dict, description="ENV the real image sets (PYTHON_VERSION is "
                                                                  "added from the interpreter actually installed)")
    workdir: str = Field("/", description="the real image's WORKDIR")
    cmd: list[str] = Field(default_factory=list, description="the real image's CMD")
    entrypoint: list[str] = Field(default_factory=list, description="the real image's ENTRYPOINT")
    users: dict[str, int] = Field(default_factory=dict, description="login users the real image has (name: uid)")
    labels: dict[str, str] = Field(default_factory=dict, description="labels of the real image tasks may read")
    differs: list[str] = Field(default_factory=list, description="what is known to differ from the real image")

    @property
    def names(self) -> list[str]:
        return [self.name, *self.aliases]


def _python(minor: str) -> StandIn:
    wheels = [f"pip=={PIP_VERSION}"]
    if tuple(map(int, minor.split("."))) < (3, 12):  # the real images of 3.11 and older carry setuptools, wheel
        wheels += ["setuptools==65.5.1", "wheel==0.45.1"]
    return StandIn(
        name=f"python:{minor}-slim", aliases=[f"python:{minor}-slim-bookworm"], kind="python", python=minor,
        wheels=wheels, apt=["python3-venv", "tzdata", "netbase", "ca-certificates"],
        env={"PATH": f"/usr/local/bin:{REAL_PATH}", "LANG": "C.UTF-8"}, cmd=["python3"],
        differs=[*BASE_EXTRAS,
                 "python, python3 and python3.X in /usr/local/bin link to Debian's /usr/bin/python3.X (also on "
                 "PATH): pip installs into /usr/local/lib/python3.X/dist-packages, not site-packages; sys.prefix "
                 "is /usr",
                 "no python3-config (the real image has the headers; install python3-dev with apt)",
                 f"pip {PIP_VERSION} from PyPI, not the pip version the real image was released with; python -m "
                 "venv seeds Debian's pip (python3-pip-whl), not the real image's ensurepip one",
                 "GPG_KEY and PYTHON_SHA256 are not set: no CPython source was built or verified"])


def _ubuntu() -> StandIn:
    return StandIn(
        name="ubuntu:24.04", aliases=["ubuntu:noble"], kind="os", env={"PATH": REAL_PATH}, cmd=["/bin/bash"],
        users={"ubuntu": 1000},
        labels={"org.opencontainers.image.ref.name": "ubuntu", "org.opencontainers.image.version": "24.04"},
        differs=["Debian 12 (bookworm) userland and apt archive, not Ubuntu 24.04 (noble): /etc/os-release says "
                 "Debian, apt installs Debian's versions (python3 is 3.11, not 3.12), and Ubuntu-only package "
                 "names do not exist", "python3 (3.11) is installed: the real image has no Python", *BASE_EXTRAS])


# buildpack-deps:bookworm = its -curl and -scm layers plus the development libraries, in one install
BUILDPACK_APT = [
    "ca-certificates", "curl", "gnupg", "netbase", "sq", "wget",
    "git", "mercurial", "openssh-client", "subversion", "procps",
    "autoconf", "automake", "bzip2", "default-libmysqlclient-dev", "dpkg-dev", "file", "g++", "gcc", "imagemagick",
    "libbz2-dev", "libc6-dev", "libcurl4-openssl-dev", "libdb-dev", "libevent-dev", "libffi-dev", "libgdbm-dev",
    "libglib2.0-dev", "libgmp-dev", "libjpeg-dev", "libkrb5-dev", "liblzma-dev", "libmagickcore-dev",
    "libmagickwand-dev", "libmaxminddb-dev", "libncurses5-dev", "libncursesw5-dev", "libpng-dev", "libpq-dev",
    "libreadline-dev", "libsqlite3-dev", "libssl-dev", "libtool", "libwebp-dev", "libxml2-dev", "libxslt-dev",
    "libyaml-dev", "make", "patch", "unzip", "xz-utils", "zlib1g-dev",
]


def _buildpack() -> StandIn:
    return StandIn(
        name="buildpack-deps:bookworm", kind="os", apt=BUILDPACK_APT, env={"PATH": REAL_PATH}, cmd=["bash"],
        differs=["built on a debootstrap minbase (fewer Priority: important packages than debian:bookworm)",
                 "python3 (3.11) from the base is installed even where no package above pulls it in"])


def _uv() -> StandIn:
    major_minor = ".".join(UV_VERSION.split(".")[:2])
    return StandIn(
        name="ghcr.io/astral-sh/uv:latest", kind="uv", entrypoint=["/uv"],
        aliases=[f"ghcr.io/astral-sh/uv:{UV_VERSION}",
                 f"ghcr.io/astral-sh/uv:{major_minor}"],
        differs=[f"uv {UV_VERSION} from the PyPI wheel (pinned): ':latest' is not the registry's newest",
                 "uv verifies TLS with its bundled roots: through a TLS-intercepting proxy, set UV_NATIVE_TLS=1"])


CATALOGUE: list[StandIn] = [_python("3.11"), _python("3.12"), _ubuntu(), _buildpack(), _uv()]


def normalise(name: str) -> str:
    """The name as the catalogue spells it: no docker.io/ or library/ prefix, and ':latest' where untagged."""
    name = re.sub(r"^(docker\.io/|index\.docker\.io/)", "", name.strip())
    name = re.sub(r"^library/", "", name)
    return name if ":" in name.rsplit("/", 1)[-1] or "@" in name else f"{name}:latest"


def _index() -> dict[str, StandIn]:
    found: dict[str, StandIn] = {}
    for standin in CATALOGUE:
        for name in standin.names:
            found[normalise(name)] = standin
    return found


def known_names() -> list[str]:
    return [name for standin in CATALOGUE for name in standin.names]


def find_standin(name: str) -> StandIn | None:
    """The catalogue entry for a registry name (any alias, docker.io/library/ or not), else None."""
    return _index().get(normalise(name))


def standin_for(name: str) -> StandIn:
    """Like find_standin, but an unknown name is refused with the list of known ones."""
    found = find_standin(name)
    if found is None:
        raise ValueError(f"--as {name!r}: no stand-in for this image. Known: {', '.join(known_names())}. Fix: use "
                         f"one of these, map the image to a local one (import-suite --map-image), or add a "
                         f"StandIn to nightshift/sandbox/standins.py (docs/SUITES.md says how)")
    return found
