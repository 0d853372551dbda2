"""One Fernet key per protected split: where it is looked up, how a new one is made and stored.

A key is the grant: whoever holds the heldout key may run held-out cases, and nobody else can read them. It is
read from ``NIGHTSHIFT_SPLIT_KEY_<SPLIT>`` or, for workers that do not have it in their environment, from a
Prefect Secret block the experiment names. It is never a flow parameter, a result, an artifact or a log line.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import cast

from cryptography.fernet import Fernet

from nightshift.errors import ConfigurationError

PROTECTED_SPLITS = ("heldout", "commercial")
SPLITS = ("public", *PROTECTED_SPLITS)

_secret_cache: dict[str, bytes] = {}
_lock = threading.Lock()


class SplitAccessError(ConfigurationError, PermissionError):
    """A protected case cannot be opened or run here: no key, a wrong key, its budget is spent, a network."""

    def __init__(self, message: str, splits: tuple[str, ...] = (), kind: str = "no grant") -> None:
        super().__init__(message)
        self.splits = splits  # the protected splits refused
        self.kind = kind  # what the audit log records: 'no grant', 'budget spent', 'network'


def is_protected(split: str) -> bool:
    return split in PROTECTED_SPLITS


def key_env(split: str) -> str:
    """The environment variable that holds a split's key: NIGHTSHIFT_SPLIT_KEY_HELDOUT, ..._COMMERCIAL."""
    return f"NIGHTSHIFT_SPLIT_KEY_{split.upper()}"


def default_key_file(split: str) -> Path:
    """Where ``nightshift seal`` keeps a key it generated: the user's config folder, mode 0600."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "nightshift" / "keys" / f"{split}.key"


def how_to_get_access(split: str, secret_block: str | None = None) -> str:
    where = f" or a Prefect Secret block named {secret_block!r}" if secret_block else (
        " (or name a Prefect Secret block holding it in the experiment: splits.<split>.key_secret)")
    return (f"ask the owner of the {split} split for its key and set {key_env(split)}=<key>{where}; "
            f"`nightshift seal` printed where the key it made went")


def split_key(split: str, secret_block: str | None = None) -> bytes | None:
    """The split's key from its environment variable, else from the named Prefect Secret block; None: no grant."""
    value = os.environ.get(key_env(split), "").strip()
    if value:
        return _checked(value.encode(), split, key_env(split))
    if not secret_block:
        return None
    with _lock:
        if secret_block not in _secret_cache:
            _secret_cache[secret_block] = _read_secret(secret_block, split)
    return _secret_cache[secret_block]


def _read_secret(name: str, split: str) -> bytes:
    from prefect.blocks.system import Secret  # optional: only an experiment that names a Secret block needs the API

    try:
        block = cast("Secret[str]", Secret.load(name))  # the sync call: this process has no event loop running
        value = block.get()
    except ValueError as exc:  # Prefect: no block of that name
        raise SplitAccessError(f"split {split!r}: Prefect Secret block {name!r} not found ({exc}); create it "
                               f"with the split's key, or set {key_env(split)}") from None
    return _checked(str(value).strip().encode(), split, f"Prefect Secret block {name!r}")


def _checked(key: bytes, split: str, source: str) -> bytes:
    try:
        Fernet(key)
    except ValueError:
        raise SplitAccessError(f"{source}: not a Fernet key for split {split!r} (44 url-safe base64 characters, "
                               f"as `nightshift seal` writes); copy it again from the key file") from None
    return key


def new_key_file(split: str, path: Path | None = None) -> tuple[bytes, Path]:
    """A new key for ``split`` written to ``path`` (default: default_key_file) with mode 0600; refuses to
    overwrite an existing key, which would make every case sealed with it unreadable."""
    path = path or default_key_file(split)
    if path.exists():
        raise SplitAccessError(f"{path}: a key file already exists; set {key_env(split)}=$(cat {path}) to seal "
                               f"with it, or pass another --key-file")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = Fernet.generate_key()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key + b"\n")
    return key, path
