"""Injected bugs: one small AST-level change inside one function of a project's source.

Each mutation replaces the source text of exactly one node (found by its line and column span) with the
unparsed mutated node, so the diff is one or a few lines and the rest of the file is byte-identical.
Kinds: operator, comparison, boundary (an integer constant in a comparison or slice moved by one),
removed branch (an ``if`` without ``else`` deleted), swapped arguments, wrong constant (True/False,
an integer moved by one), wrong return (``return X`` becomes ``return None``).
"""

from __future__ import annotations

import ast
import copy
import difflib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_OPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Div: ast.Mult,
        ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift,
        ast.RShift: ast.LShift}
_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
_BOOL = {ast.And: ast.Or, ast.Or: ast.And}


@dataclass(frozen=True)
class Mutation:
    file: str  # relative to the source root
    function: str
    kind: str
    line: int
    mutated_text: str  # the whole file after the change

    def gold_patch(self, original_text: str) -> str:
        """The reverse change as a unified diff (a/ b/ paths, applies with patch -p1 or git apply)."""
        return unified_diff(self.file, self.mutated_text, original_text)


def unified_diff(rel: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 fromfile=f"a/{rel}", tofile=f"b/{rel}")
    return f"diff --git a/{rel} b/{rel}\n" + "".join(lines)


def _segment(lines: list[str], node: Any) -> tuple[int, int]:  # a node with a source span
    """Character offsets of ``node`` in the file joined from ``lines``."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    begin = starts[node.lineno - 1] + len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
    end = starts[node.end_lineno - 1] + len(lines[node.end_lineno - 1].encode()[:node.end_col_offset].decode())
    return begin, end


def _variants(node: ast.AST) -> Iterator[tuple[str, ast.AST | None]]:
    """(kind, replacement) for one node; None means delete the statement."""
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        yield "operator", ast.BinOp(node.left, _OPS[type(node.op)](), node.right)
    elif isinstance(node, ast.BoolOp) and type(node.op) in _BOOL:
        yield "operator", ast.BoolOp(_BOOL[type(node.op)](), node.values)
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP:
        yield "comparison", ast.Compare(node.left, [_CMP[type(node.ops[0])]()], node.comparators)
        right = node.comparators[0]
        if isinstance(right, ast.Constant) and type(right.value) is int:
            yield "boundary", ast.Compare(node.left, node.ops, [ast.Constant(right.value + 1)])
    elif isinstance(node, ast.If) and not node.orelse:
        yield "removed branch", None
    elif isinstance(node, ast.Call) and len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args):
        swapped = copy.copy(node)
        swapped.args = [node.args[1], node.args[0], *node.args[2:]]
        yield "swapped arguments", swapped
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield "wrong constant", ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int and 0 <= node.value < 1000:
        yield "wrong constant", ast.Constant(node.value + 1)
    elif isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        yield "wrong return", ast.Return(ast.Constant(None))


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _apply(text: str, lines: list[str], node: Any, replacement: ast.AST | None) -> str | None:
    begin, end = _segment(lines, node)
    if replacement is None:  # delete the whole lines of the statement
        begin = begin - len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
        end = begin + sum([len(line) for line in lines[node.lineno - 1:node.end_lineno]])
        new = text[:begin] + text[end:]
    else:
        new = text[:begin] + ast.unparse(replacement) + text[end:]
    try:
        compile(new, "<mutant>", "exec")
    except (SyntaxError, ValueError):
        return None  # e.g. the branch was a body's only statement
    return new if new != text else None


def mutations(source: Path, files: list[Path], seed: int = 0) -> Iterator[Mutation]:
    """Candidate mutations across ``files``, in a seeded order that spreads over files and functions."""
    pool: list[tuple[Path, str, Any]] = []
    texts: dict[Path, str] = {}
    for path in files:
        text = path.read_text()
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        texts[path] = text
        for func in _functions(tree):
            if func.name.startswith("__") and func.name != "__init__":
                continue
            body_nodes = [n for stmt in func.body for n in ast.walk(stmt)
                          if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)]
            pool.extend((path, func.name, n) for n in body_nodes if hasattr(n, "lineno"))
    random.Random(seed).shuffle(pool)
    used: set[tuple[Path, str]] = set()
    for path, function, node in pool:
        if (path, function) in used:
            continue  # one mutation per function at most: tasks stay distinct
        text = texts[path]
        lines = text.splitlines(keepends=True)
        for kind, replacement in _variants(node):
            new = _apply(text, lines, node, replacement)
            if new is not None:
                used.add((path, function))
                yield Mutation(path.relative_to(source).as_posix(), function, kind, node.lineno, new)
                break
