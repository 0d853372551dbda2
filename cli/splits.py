"""``nightshift seal`` (a suite's protected cases encrypted at rest with their split's key) and ``nightshift
audit`` (the audit log of protected runs printed, its hash chain verified). docs/SPLITS.md."""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

from rich.console import Console


def add_split_commands(sub: argparse._SubParsersAction) -> None:
    seal = sub.add_parser("seal", help="encrypt a suite's held-out or commercial cases at rest (one key per split)")
    seal.add_argument("suite", help="a suite folder")
    seal.add_argument("--split", required=True, choices=["heldout", "commercial"],
                      help="seal the cases of this split (case.toml 'split', or suite.toml's for every case)")
    seal.add_argument("--out", type=Path, help="write the sealed suite here instead of sealing in place")
    seal.add_argument("--key-file", type=Path, help="the key file to use, or to create (mode 0600) if missing; "
                      "default: $NIGHTSHIFT_SPLIT_KEY_<SPLIT>, else ~/.config/nightshift/keys/<split>.key")
    seal.set_defaults(fn=seal_command)
    audit = sub.add_parser("audit", help="print the audit log of protected runs and verify its hash chain")
    audit.add_argument("where", nargs="?", default="runs", type=Path,
                       help="a run store (an experiment's output_dir) or its audit.jsonl (default: runs)")
    audit.set_defaults(fn=audit_command)


def _key(split: str, key_file: Path | None, console: Console) -> bytes:
    from nightshift.splits.keys import default_key_file, key_env, new_key_file, split_key

    key = None if key_file else split_key(split)
    if key is not None:
        console.print(f"key: {key_env(split)} (from the environment)")
        return key
    path = key_file or default_key_file(split)
    if path.is_file():
        os.environ[key_env(split)] = path.read_text().strip()
        key = split_key(split)  # checks it is a Fernet key
        assert key is not None
        console.print(f"key: {path} (existing)", markup=False, highlight=False)
        return key
    key, path = new_key_file(split, path)
    console.print(f"key: {path} (new, mode 0600): keep it; whoever holds it may run and read these cases",
                  markup=False, highlight=False)
    return key


def seal_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.errors import SuiteError
    from nightshift.resources import is_installed
    from nightshift.splits.keys import key_env
    from nightshift.suites import load_cases, resolve_suite
    from nightshift.suites.loader import case_folders, tree_hash
    from nightshift.suites.sealed import is_sealed, seal_case_folder

    folder = resolve_suite(str(args.suite))
    target = (args.out or folder).resolve()
    if (is_installed(folder) or str(args.suite) in ("builtin", "humaneval")) and args.out is None:
        raise SuiteError(f"{folder}: a suite nightshift ships; pass --out to write a sealed copy of it")
    plain = [d for d in case_folders(folder) if not is_sealed(d)]
    chosen = [c for c in load_cases(folder, [d.name for d in plain]) if c.split == args.split]
    if not chosen:
        raise SuiteError(f"{folder}: no unsealed case has split {args.split!r}; set split = \"{args.split}\" in "
                         f"their case.toml (or in suite.toml for every case) first")
    if args.out is not None:
        if target.exists() and any(target.iterdir()):
            raise SuiteError(f"{target}: --out exists and is not empty; name a new folder")
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns(*(c.id for c in chosen), "__pycache__"))
    key = _key(args.split, args.key_file, console)
    for case in chosen:
        seal_case_folder(case.root, key, args.split, case.content_hash, tree_hash,
                         target / case.id if args.out else None)
    os.environ[key_env(args.split)] = key.decode()  # open what was written, to prove it before saying so
    sealed = [c for c in load_cases(target, [c.id for c in chosen])]
    assert all(s.sealed and s.content_hash == c.content_hash for s, c in zip(sealed, chosen, strict=True))
    console.print(f"sealed {len(chosen)} {args.split} cases of {folder} into {target}: "
                  f"{', '.join(c.id for c in chosen)}", markup=False, highlight=False, soft_wrap=True)
    console.print(f"grant a run: export {key_env(args.split)}=<the key>  (or a Prefect Secret block named in the "
                  f"experiment's splits.{args.split}.key_secret)", markup=False, highlight=False, soft_wrap=True)
    return 0


def audit_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.splits.audit import AUDIT_FILE, AuditBroken, verify

    path = args.where if args.where.suffix == ".jsonl" else args.where / AUDIT_FILE
    if not path.is_file():
        console.print(f"{path}: no audit log (no run has touched a protected split there)", markup=False,
                      highlight=False)
        return 0
    try:
        entries = verify(path)
    except AuditBroken as exc:
        console.print(str(exc), style="red", markup=False, highlight=False, soft_wrap=True)
        return exc.exit_code
    for entry in entries:
        d = entry.data
        splits = ", ".join(f"{s} ({len(ids)} cases)" for s, ids in sorted(d.get("splits", {}).items()))
        versions = ", ".join(sorted(set(d.get("model_versions", {}).values()))) or "-"
        outcome = ", ".join(f"{k} {v}" for k, v in d.get("outcome", {}).items())
        console.print(f"{entry.line:>4} {d.get('at')} {d.get('event'):<9} {d.get('who', {}).get('user', '?'):<10} "
                      f"run {d.get('run_id') or '-'}  {splits or '-'}  models {versions}  {outcome}",
                      markup=False, highlight=False, soft_wrap=True)
    console.print(f"{path}: {len(entries)} lines, chain verified", markup=False, highlight=False)
    return 0
