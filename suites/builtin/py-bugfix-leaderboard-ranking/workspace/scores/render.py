"""Render a leaderboard as text."""
from .parse import parse
from .ranking import rank


def render(text):
    rows = rank(parse(text))
    return "\n".join(f"{r}. {e.name} {e.score}" for r, e in rows) + ("\n" if rows else "")
