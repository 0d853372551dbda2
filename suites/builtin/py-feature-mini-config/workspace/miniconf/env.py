"""Environment variable expansion for config values."""
import re

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand_env(value, env):
    """Replace ``${NAME}`` / ``${NAME:-default}`` using the mapping ``env``.

    Unknown names without a default are left untouched.
    """
    def sub(m):
        name, default = m.group(1), m.group(2)
        if name in env:
            return env[name]
        return default if default is not None else m.group(0)
    return _VAR.sub(sub, value)
