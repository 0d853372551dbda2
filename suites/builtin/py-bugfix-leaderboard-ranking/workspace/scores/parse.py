"""Parse ``name,score`` lines."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    name: str
    score: int


def parse(text):
    """Parse lines of ``name,score``; blank lines and ``#`` comments are skipped."""
    entries = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            name, score = line.rsplit(",", 1)
            entries.append(Entry(name.strip(), int(score)))
        except ValueError:
            raise ValueError(f"line {lineno}: cannot parse {raw!r}") from None
    return entries
