from .cart import Cart, Line

__all__ = ["Cart", "Line"]
