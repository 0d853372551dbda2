"""Small helpers around version strings."""


def strip_v(text):
    """Remove surrounding whitespace and one leading ``v``/``V`` (``" v1.2.3" -> "1.2.3"``)."""
    text = text.strip()
    return text[1:] if text[:1] in ("v", "V") else text
