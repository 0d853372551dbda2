from .parser import ConfigError, get_bool, get_int, parse
from .env import expand_env

__all__ = ["ConfigError", "parse", "get_int", "get_bool", "expand_env"]
