"""Which case a request is about: the suites loaded at startup, indexed by instruction text.

A request belongs to the case whose full instruction text (stripped of surrounding whitespace) appears
inside one of its user messages; when several do, the longest instruction wins. ``CaseBrief`` is the
little the stand-in agent needs to know about a case, read once so the policy stays pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from nightshift.models import Case
from nightshift.splits import split_key
from nightshift.suites.loader import case_folders, load_cases, open_case
from nightshift.suites.sealed import is_sealed, sealed_split

MAX_LISTED_FILES = 200


@dataclass(frozen=True)
class CaseBrief:
    """What the stand-in agent knows of a case: its id, instruction, oracle script and workspace files."""

    id: str
    instruction: str
    solution: str
    files: tuple[str, ...] = ()

    @classmethod
    def from_case(cls, case: Case) -> CaseBrief:
        return cls(id=case.id, instruction=case.instruction.strip(),
                   solution=case.solution_script.read_text(), files=workspace_files(case.workspace_dir))


def workspace_files(root: Path) -> tuple[str, ...]:
    """Relative paths of the visible files of a workspace folder, sorted (empty if there is none)."""
    if not root.is_dir():
        return ()
    found = sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") or part == "__pycache__"
                                   for part in p.relative_to(root).parts)
    )
    return tuple(found[:MAX_LISTED_FILES])


def message_text(message: dict) -> str:
    """The text of a chat message whose content is a string or a list of content parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content
                         if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


class CaseIndex:
    """Cases of the given suite folders, looked up by the instruction text found in user messages."""

    def __init__(self, briefs: Iterable[CaseBrief] = ()) -> None:
        # longest instruction first, so a case whose instruction contains another's wins
        self._briefs = sorted((b for b in briefs if b.instruction), key=lambda b: (-len(b.instruction), b.id))

    @classmethod
    def from_suites(cls, suite_dirs: Iterable[Path]) -> CaseIndex:
        """The cases it can read: a sealed case only with its split's key in this process's environment (the
        simulator plays the model, which is shown a case's instruction; its oracle is the stand-in's cheat)."""
        briefs = []
        for suite in suite_dirs:
            readable = [d.name for d in case_folders(Path(suite))
                        if not is_sealed(d) or split_key(sealed_split(d)) is not None]
            for case in load_cases(Path(suite), readable):
                with open_case(case) as opened:
                    briefs.append(CaseBrief.from_case(opened))
        return cls(briefs)

    def __len__(self) -> int:
        return len(self._briefs)

    def match(self, messages: list[dict]) -> CaseBrief | None:
        texts = [message_text(m) for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        for brief in self._briefs:
            if any(brief.instruction in text for text in texts):
                return brief
        return None
