"""Unicode normalisation helpers."""
import unicodedata


def strip_accents(text):
    """Return ``text`` with diacritics removed: ``"Crème" -> "Creme"``."""
    decomposed = unicodedata.normalize("NFC", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def collapse_whitespace(text):
    """Collapse runs of whitespace into single spaces and strip the ends."""
    return " ".join(text.split())
