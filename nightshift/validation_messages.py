"""Pydantic validation errors as lines a person can act on: every problem at once, each naming its field, with
"did you mean" for a misspelt name. Used by the experiment schema, harness settings and metric settings."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ValidationError


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest choice, else ''."""
    close = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def field_names(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields) | {f.alias for f in model.model_fields.values() if f.alias}


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class that holds the field at ``loc`` (its last part), walking nested models, lists, dicts."""
    current: Any = model
    for part in loc[:-1]:
        holder = _inner_model(current)
        info = holder.model_fields.get(part) if holder is not None and isinstance(part, str) else None
        if info is not None:
            current = info.annotation
        # else a list index, a dict key (a variant's name) or a union member's tag: the same annotation goes on
    return _inner_model(current)


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    """The first pydantic model inside a list[...], dict[..., ...], Optional or union annotation."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def error_lines(exc: ValidationError, model: type[BaseModel], prefix: str = "") -> list[tuple[str, str]]:
    """(field path, message with its fix) for every error pydantic found."""
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        where = ".".join(str(p) for p in (prefix.split(".") if prefix else []) + list(loc)) or "(top level)"
        kind, msg = err.get("type", ""), err["msg"]
        if kind == "extra_forbidden" and loc:
            holder = _model_at(model, loc)
            known = field_names(holder) if holder else set()
            hint = did_you_mean(str(loc[-1]), known) or (f" (unknown field; it takes {sorted(known)})" if known
                                                         else " (unknown field)")
            msg = f"not a field{hint}"
        elif kind == "missing":
            msg += " (required: add it)"
        out.append((where, msg))
    return out
