from .core import Page, paginate
from .mathutil import page_count

__all__ = ["Page", "paginate", "page_count"]
