"""Sealed case folders: a protected case stored encrypted at rest, opened only where a trial or the grader needs it.

A sealed case folder holds two files: ``sealed.toml`` (the split and the plaintext's content hash, nothing
else in the clear) and ``case.tar.fernet`` (the whole original folder — case.toml, instruction, workspace,
tests, hidden-test generator, oracle — as a gzipped tar sealed with the split's key). Opening it extracts the tar into
a private 0700 folder in memory (nightshift.scratch.private_root) for the length of a ``with`` block; nothing
decrypted is written anywhere else. The content hash is the plaintext's, so a re-seal (new IV) changes no
trial id and validate-suite's record still applies.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tarfile
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

from nightshift.errors import SuiteError
from nightshift.models import Case
from nightshift.scratch import private_root, scratch
from nightshift.splits.keys import SplitAccessError, how_to_get_access, is_protected, split_key
from nightshift.splits.sealing import opaque_case_id, open_bytes, seal_bytes

SEALED_META = "sealed.toml"
SEALED_BLOB = "case.tar.fernet"


def is_sealed(folder: Path) -> bool:
    return (folder / SEALED_META).is_file()


def sealed_split(folder: Path) -> str:
    """The split a sealed case folder says it belongs to (sealed.toml 'split')."""
    meta_path = folder / SEALED_META
    try:
        split = tomllib.loads(meta_path.read_text()).get("split", "")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SuiteError(f"{meta_path}: cannot read it ({exc}); seal the case again") from None
    if not is_protected(split):
        raise SuiteError(f"{meta_path}: field 'split' = {split!r}; a sealed case is 'heldout' or 'commercial'")
    return str(split)


def _tar_of(folder: Path) -> bytes:
    """The folder as a gzipped tar with owners and times dropped (tar pads every small file to 512 bytes: gzip
    takes a sealed case back to about its own size). Links stay links; opening refuses any that points out."""

    def plain(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        if "__pycache__" in Path(info.name).parts:
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for child in sorted(folder.iterdir()):
            tar.add(child, arcname=child.name, filter=plain)
    return buffer.getvalue()


def seal_case_folder(folder: Path, key: bytes, split: str, content_hash: str, hash_tree: Callable[[Path], str],
                     out: Path | None = None) -> Path:
    """Seal one case folder with ``key`` in place (its plaintext removed) or into ``out``; returns the sealed
    folder. The sealed bytes are opened again and hashed (``hash_tree``: the loader's content hash) before any
    plaintext is removed: a case that would not come back the same is refused, untouched."""
    token = seal_bytes(key, _tar_of(folder))
    with scratch("seal-check", private_root()) as private:
        try:
            _unpack(open_bytes(key, token, split, folder), private)
        except SuiteError:
            raise SuiteError(f"{folder}: sealing would not give the case back (a link out of the folder?); "
                             f"nothing was changed: fix the folder and seal again") from None
        if hash_tree(private) != content_hash:
            raise SuiteError(f"{folder}: the sealed case would hash differently from the folder (a special file or "
                             f"a link?); nothing was changed: fix the folder and seal again")
    target = out or folder
    target.mkdir(parents=True, exist_ok=True)
    staged = target / f".{SEALED_BLOB}.partial"
    staged.write_bytes(token)
    if out is None:
        for child in folder.iterdir():
            if child != staged:
                shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    staged.replace(target / SEALED_BLOB)
    (target / SEALED_META).write_text(f'# sealed by `nightshift seal`: open it with the {split} key\n'
                                      f'split = "{split}"\ncontent_hash = "{content_hash}"\n')
    return target


def _unpack(plain: bytes, into: Path) -> None:
    try:
        with tarfile.open(fileobj=io.BytesIO(plain), mode="r:*") as tar:
            tar.extractall(into, filter="data")  # the data filter refuses absolute paths, '..' and device files
    except tarfile.TarError as exc:
        raise SuiteError(f"not a case archive ({exc})") from None


def _extract(folder: Path, key: bytes, split: str, into: Path) -> None:
    blob = folder / SEALED_BLOB
    if not blob.is_file():
        raise SuiteError(f"{blob}: missing beside {SEALED_META}; seal the case again from its plaintext")
    try:
        _unpack(open_bytes(key, blob.read_bytes(), split, blob), into)
    except SuiteError as exc:
        raise SuiteError(f"{blob}: opens with the key but {exc}; seal the case again from its plaintext") from None


def case_key(folder: Path, split: str, key_secrets: dict[str, str] | None) -> bytes:
    key = split_key(split, (key_secrets or {}).get(split))
    if key is None:
        raise SplitAccessError(f"{folder}: a sealed {split} case and no {split} key here; "
                               f"{how_to_get_access(split, (key_secrets or {}).get(split))}")
    return key


@contextlib.contextmanager
def opened_folder(folder: Path, key_secrets: dict[str, str] | None = None) -> Iterator[Path]:
    """The plaintext of one sealed case folder in a private folder, removed when the block ends."""
    split = sealed_split(folder)
    key = case_key(folder, split, key_secrets)
    with scratch("sealed", private_root()) as private:
        plain = private / folder.name
        plain.mkdir(mode=0o700)
        _extract(folder, key, split, plain)
        yield plain


CaseLoader = Callable[[Path, str, str], Case]
"""(case folder, suite name, the split its case.toml defaults to) -> Case: suites.loader.load_case."""


def sealed_case(folder: Path, suite_name: str, key_secrets: dict[str, str] | None, load: CaseLoader) -> Case:
    """The Case of a sealed folder, for planning a night: every field from the plaintext (read in a private
    folder, then removed) except ``root`` (the sealed folder) and ``instruction`` (empty until open_case)."""
    split = sealed_split(folder)
    key = case_key(folder, split, key_secrets)
    recorded = tomllib.loads((folder / SEALED_META).read_text()).get("content_hash", "")
    with opened_folder(folder, key_secrets) as plain:
        case = load(plain, suite_name, split)
    if case.split != split:
        raise SuiteError(f"{folder / SEALED_META}: field 'split' = {split!r} but the sealed case.toml says "
                         f"{case.split!r}; seal the case again")
    if recorded != case.content_hash:
        raise SuiteError(f"{folder / SEALED_META}: field 'content_hash' does not match the sealed content (edited "
                         f"after sealing?); seal the case again from its plaintext")
    return case.model_copy(update={"root": folder.resolve(), "instruction": "", "sealed": True,
                                   "opaque_id": opaque_case_id(key, split, suite_name, case.id)})


@contextlib.contextmanager
def open_case(case: Case, load: CaseLoader, key_secrets: dict[str, str] | None = None) -> Iterator[Case]:
    """The case with its files readable: itself when not sealed; else its plaintext in a private folder (in
    memory) for the block, with what the night resolved (flaky tests, metrics, opaque id) carried over. The
    opened case is not ``sealed``: its root is the plaintext."""
    if not case.sealed:
        yield case
        return
    with opened_folder(case.root, key_secrets) as plain:
        opened = load(plain, case.suite, case.split)
        yield opened.model_copy(update={"excluded_tests": case.excluded_tests, "metrics": case.metrics,
                                        "opaque_id": case.opaque_id})
