"""Split sequences into 1-based pages."""
from dataclasses import dataclass

from .mathutil import page_count


@dataclass
class Page:
    items: list
    page: int
    total_pages: int

    @property
    def has_prev(self):
        return self.page > 1

    @property
    def has_next(self):
        return self.page < self.total_pages


def paginate(items, page, per_page):
    """Return page number ``page`` (1-based) of ``items``."""
    items = list(items)
    total_pages = page_count(len(items), per_page)
    if page < 1 or page > total_pages:
        raise ValueError(f"page {page} out of range 1..{total_pages}")
    start = (page - 1) * per_page
    return Page(items[start:start + per_page], page, total_pages)
