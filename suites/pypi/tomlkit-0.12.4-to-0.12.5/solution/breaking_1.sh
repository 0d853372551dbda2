#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/pyproject.toml b/pyproject.toml
--- a/pyproject.toml
+++ b/pyproject.toml
@@ -1,6 +1,6 @@
 [tool.poetry]
 name = "tomlkit"
-version = "0.12.4"
+version = "0.12.5"
 description = "Style preserving TOML library"
 authors = [
     "Sébastien Eustace <sebastien@eustace.io>",
@@ -32,32 +32,27 @@
 Sphinx = "^4.3.2"
 furo = "^2022.9.29"
 
-[tool.black]
-line-length = 88
-include = '\.pyi?$'
-exclude = '''
-/(
-    \.git
-  | \.hg
-  | \.mypy_cache
-  | \.tox
-  | \.venv
-  | _build
-  | build
-  | dist
-  | tests/toml-test
-)/
-'''
+[tool.ruff.lint]
+extend-select = [
+  "I",    # isort
+  "B",    # flake8-bugbear
+  "C4",   # flake8-comprehensions
+  "PGH",  # pygrep-hooks
+  "RUF",  # ruff
+  "W",    # pycodestyle
+  "YTT",  # flake8-2020
+]
+extend-ignore = ["B018", "B019", "RUF018"]
 
-[tool.isort]
-profile = "black"
-force_single_line = true
-atomic = true
-lines_after_imports = 2
-lines_between_types = 1
+[tool.ruff.lint.mccabe]
+max-complexity = 10
 
-known_first_party = ["tomlkit"]
-known_third_party = ["pytest"]
+[tool.ruff.lint.isort]
+known-first-party = ["tomlkit"]
+known-third-party = ["pytest"]
+force-single-line = true
+lines-after-imports = 2
+lines-between-types = 1
 
 [build-system]
 requires = ["poetry-core>=1.0.0a9"]
diff --git a/tomlkit/__init__.py b/tomlkit/__init__.py
--- a/tomlkit/__init__.py
+++ b/tomlkit/__init__.py
@@ -27,7 +27,7 @@
 from tomlkit.api import ws
 
 
-__version__ = "0.12.4"
+__version__ = "0.12.5"
 __all__ = [
     "aot",
     "array",
diff --git a/tomlkit/_types.py b/tomlkit/_types.py
--- a/tomlkit/_types.py
+++ b/tomlkit/_types.py
@@ -19,10 +19,10 @@
     # Importing from builtins is preferred over simple assignment, see issues:
     # https://github.com/python/mypy/issues/8715
     # https://github.com/python/mypy/issues/10068
-    from builtins import dict as _CustomDict  # noqa: N812
-    from builtins import float as _CustomFloat  # noqa: N812
-    from builtins import int as _CustomInt  # noqa: N812
-    from builtins import list as _CustomList  # noqa: N812
+    from builtins import dict as _CustomDict
+    from builtins import float as _CustomFloat
+    from builtins import int as _CustomInt
+    from builtins import list as _CustomList
     from typing import Callable
     from typing import Concatenate
     from typing import ParamSpec
@@ -31,8 +31,7 @@
     P = ParamSpec("P")
 
     class WrapperType(Protocol):
-        def _new(self: WT, value: Any) -> WT:
-            ...
+        def _new(self: WT, value: Any) -> WT: ...
 
 else:
     from collections.abc import MutableMapping
diff --git a/tomlkit/api.py b/tomlkit/api.py
--- a/tomlkit/api.py
+++ b/tomlkit/api.py
@@ -160,7 +160,7 @@
     return item(value)
 
 
-def array(raw: str = None) -> Array:
+def array(raw: str = "[]") -> Array:
     """Create an array item for its string representation.
 
     :Example:
@@ -172,9 +172,6 @@
     >>> a
     [1, 2, 3]
     """
-    if raw is None:
-        raw = "[]"
-
     return value(raw)
 
 
diff --git a/tomlkit/container.py b/tomlkit/container.py
--- a/tomlkit/container.py
+++ b/tomlkit/container.py
@@ -251,9 +251,11 @@
                         for k, v in item.value.body:
                             current.append(k, v)
                         self._body[
-                            current_idx[-1]
-                            if isinstance(current_idx, tuple)
-                            else current_idx
+                            (
+                                current_idx[-1]
+                                if isinstance(current_idx, tuple)
+                                else current_idx
+                            )
                         ] = (current_body_element[0], current)
 
                         return self
@@ -310,7 +312,7 @@
             if key is not None and not isinstance(current, Table):
                 raise KeyAlreadyPresent(key)
 
-            self._map[key] = current_idx + (len(self._body),)
+            self._map[key] = (*current_idx, len(self._body))
         elif key is not None:
             self._map[key] = len(self._body)
 
@@ -445,7 +447,7 @@
             current_idx = self._map[key]
             if not isinstance(current_idx, tuple):
                 current_idx = (current_idx,)
-            self._map[key] = current_idx + (idx,)
+            self._map[key] = (*current_idx, idx)
         else:
             self._map[key] = idx
         self._body.insert(idx, (key, item))
@@ -792,6 +794,8 @@
         self._tables = []
         self._tables_map = {}
 
+        original_parsing = container._parsed
+        container.parsing(True)
         for i in indices:
             _, item = self._container._body[i]
 
@@ -803,7 +807,7 @@
                     self._tables_map[k] = table_idx
                     if k is not None:
                         dict.__setitem__(self, k.key, v)
-
+        container.parsing(original_parsing)
         self._internal_container._validate_out_of_order_table()
 
     def unwrap(self) -> str:
diff --git a/tomlkit/exceptions.py b/tomlkit/exceptions.py
--- a/tomlkit/exceptions.py
+++ b/tomlkit/exceptions.py
@@ -115,7 +115,7 @@
     """
 
     def __init__(self, line: int, col: int, char: str) -> None:
-        message = f"Unexpected character: {repr(char)}"
+        message = f"Unexpected character: {char!r}"
 
         super().__init__(line, col, message=message)
 
@@ -148,7 +148,7 @@
     """
 
     def __init__(self, line: int, col: int, char: str) -> None:
-        message = f"Invalid character {repr(char)} in string"
+        message = f"Invalid character {char!r} in string"
 
         super().__init__(line, col, message=message)
 
diff --git a/tomlkit/items.py b/tomlkit/items.py
--- a/tomlkit/items.py
+++ b/tomlkit/items.py
@@ -54,67 +54,57 @@
 
 
 @overload
-def item(value: bool, _parent: Item | None = ..., _sort_keys: bool = ...) -> Bool:
-    ...
+def item(value: bool, _parent: Item | None = ..., _sort_keys: bool = ...) -> Bool: ...
 
 
 @overload
-def item(value: int, _parent: Item | None = ..., _sort_keys: bool = ...) -> Integer:
-    ...
+def item(value: int, _parent: Item | None = ..., _sort_keys: bool = ...) -> Integer: ...
 
 
 @overload
-def item(value: float, _parent: Item | None = ..., _sort_keys: bool = ...) -> Float:
-    ...
+def item(value: float, _parent: Item | None = ..., _sort_keys: bool = ...) -> Float: ...
 
 
 @overload
-def item(value: str, _parent: Item | None = ..., _sort_keys: bool = ...) -> String:
-    ...
+def item(value: str, _parent: Item | None = ..., _sort_keys: bool = ...) -> String: ...
 
 
 @overload
 def item(
     value: datetime, _parent: Item | None = ..., _sort_keys: bool = ...
-) -> DateTime:
-    ...
+) -> DateTime: ...
 
 
 @overload
-def item(value: date, _parent: Item | None = ..., _sort_keys: bool = ...) -> Date:
-    ...
+def item(value: date, _parent: Item | None = ..., _sort_keys: bool = ...) -> Date: ...
 
 
 @overload
-def item(value: time, _parent: Item | None = ..., _sort_keys: bool = ...) -> Time:
-    ...
+def item(value: time, _parent: Item | None = ..., _sort_keys: bool = ...) -> Time: ...
 
 
 @overload
 def item(
     value: Sequence[dict], _parent: Item | None = ..., _sort_keys: bool = ...
-) -> AoT:
-    ...
+) -> AoT: ...
 
 
 @overload
-def item(value: Sequence, _parent: Item | None = ..., _sort_keys: bool = ...) -> Array:
-    ...
+def item(
+    value: Sequence, _parent: Item | None = ..., _sort_keys: bool = ...
+) -> Array: ...
 
 
 @overload
-def item(value: dict, _parent: Array = ..., _sort_keys: bool = ...) -> InlineTable:
-    ...
+def item(value: dict, _parent: Array = ..., _sort_keys: bool = ...) -> InlineTable: ...
 
 
 @overload
-def item(value: dict, _parent: Item | None = ..., _sort_keys: bool = ...) -> Table:
-    ...
+def item(value: dict, _parent: Item | None = ..., _sort_keys: bool = ...) -> Table: ...
 
 
 @overload
-def item(value: ItemT, _parent: Item | None = ..., _sort_keys: bool = ...) -> ItemT:
-    ...
+def item(value: ItemT, _parent: Item | None = ..., _sort_keys: bool = ...) -> ItemT: ...
 
 
 def item(value: Any, _parent: Item | None = None, _sort_keys: bool = False) -> Item:
@@ -566,7 +556,7 @@
         return self._s
 
     def __repr__(self) -> str:
-        return f"<{self.__class__.__name__} {repr(self._s)}>"
+        return f"<{self.__class__.__name__} {self._s!r}>"
 
     def _getstate(self, protocol=3):
         return self._s, self._fixed
@@ -629,9 +619,8 @@
 
     def _new(self, result):
         raw = str(result)
-        if self._sign:
-            sign = "+" if result >= 0 else "-"
-            raw = sign + raw
+        if self._sign and result >= 0:
+            raw = f"+{raw}"
 
         return Integer(result, self._trivia, raw)
 
@@ -724,9 +713,8 @@
     def _new(self, result):
         raw = str(result)
 
-        if self._sign:
-            sign = "+" if result >= 0 else "-"
-            raw = sign + raw
+        if self._sign and result >= 0:
+            raw = f"+{raw}"
 
         return Float(result, self._trivia, raw)
 
@@ -1457,23 +1445,19 @@
         return self._value
 
     @overload
-    def append(self: AT, key: None, value: Comment | Whitespace) -> AT:
-        ...
+    def append(self: AT, key: None, value: Comment | Whitespace) -> AT: ...
 
     @overload
-    def append(self: AT, key: Key | str, value: Any) -> AT:
-        ...
+    def append(self: AT, key: Key | str, value: Any) -> AT: ...
 
     def append(self, key, value):
         raise NotImplementedError
 
     @overload
-    def add(self: AT, key: Comment | Whitespace) -> AT:
-        ...
+    def add(self: AT, key: Comment | Whitespace) -> AT: ...
 
     @overload
-    def add(self: AT, key: Key | str, value: Any = ...) -> AT:
-        ...
+    def add(self: AT, key: Key | str, value: Any = ...) -> AT: ...
 
     def add(self, key, value=None):
         if value is None:
@@ -1591,7 +1575,7 @@
 
         self._value.append(key, _item)
 
-        if isinstance(key, Key):
+        if isinstance(Key, key):
             key = next(iter(key)).key
             _item = self._value[key]
 
@@ -1874,12 +1858,10 @@
         return len(self._body)
 
     @overload
-    def __getitem__(self, key: slice) -> list[Table]:
-        ...
+    def __getitem__(self, key: slice) -> list[Table]: ...
 
     @overload
-    def __getitem__(self, key: int) -> Table:
-        ...
+    def __getitem__(self, key: int) -> Table: ...
 
     def __getitem__(self, key):
         return self._body[key]
diff --git a/tomlkit/parser.py b/tomlkit/parser.py
--- a/tomlkit/parser.py
+++ b/tomlkit/parser.py
@@ -481,7 +481,7 @@
                             raw,
                         )
                     except ValueError:
-                        raise self.parse_error(InvalidDateTimeError)
+                        raise self.parse_error(InvalidDateTimeError) from None
 
                 if m.group(1):
                     try:
@@ -513,7 +513,7 @@
                             raw + time_part,
                         )
                     except ValueError:
-                        raise self.parse_error(InvalidDateError)
+                        raise self.parse_error(InvalidDateError) from None
 
                 if m.group(5):
                     try:
@@ -529,7 +529,7 @@
                             raw,
                         )
                     except ValueError:
-                        raise self.parse_error(InvalidTimeError)
+                        raise self.parse_error(InvalidTimeError) from None
 
             item = self._parse_number(raw, trivia)
             if item is not None:
@@ -981,9 +981,9 @@
                         is_aot and i == len(name_parts) - 2,
                         is_super_table=i < len(name_parts) - 2,
                         name=_name.key,
-                        display_name=full_key.as_string()
-                        if i == len(name_parts) - 2
-                        else None,
+                        display_name=(
+                            full_key.as_string() if i == len(name_parts) - 2 else None
+                        ),
                     ),
                 )
 
diff --git a/tomlkit/source.py b/tomlkit/source.py
--- a/tomlkit/source.py
+++ b/tomlkit/source.py
@@ -119,7 +119,7 @@
             self._idx = len(self)
             self._current = self.EOF
             if exception:
-                raise self.parse_error(exception)
+                raise self.parse_error(exception) from None
 
             return False
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
