"""Bytes sealed with a split's key (Fernet: AES-128-CBC + HMAC-SHA256, so an edited token is refused, not
misread), and the opaque id a protected case shows wherever its real id would say too much."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from nightshift.splits.keys import SplitAccessError, key_env


def seal_bytes(key: bytes, data: bytes) -> bytes:
    return Fernet(key).encrypt(data)


def open_bytes(key: bytes, token: bytes, split: str, where: Path | str) -> bytes:
    """The plaintext of ``token``; a wrong key or an edited file is a SplitAccessError naming the file."""
    try:
        return Fernet(key).decrypt(token)
    except InvalidToken:
        raise SplitAccessError(f"{where}: the {split} key in use does not open it (a wrong key, or the file was "
                               f"changed since it was sealed); check {key_env(split)} against the key it was "
                               f"sealed with") from None


def opaque_case_id(key: bytes, split: str, suite: str, case_id: str) -> str:
    """A stable id for a protected case that only a key holder can link to its real id (an HMAC, not a plain
    hash: case ids are guessable, so a hash of one could be looked up)."""
    mac = hmac.new(key, f"{suite}/{case_id}".encode(), hashlib.sha256).hexdigest()
    return f"{split}-{mac[:12]}"
