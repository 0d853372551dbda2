#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/pyproject.toml b/pyproject.toml
--- a/pyproject.toml
+++ b/pyproject.toml
@@ -26,7 +26,7 @@
     "Programming Language :: Python :: 3.12",
     "License :: OSI Approved :: Apache Software License",
 ]
-version = "0.3.5"
+version = "0.4.0"
 
 [project.license]
 text = "Apache-2.0"
diff --git a/src/dep_logic/tags/__init__.py b/src/dep_logic/tags/__init__.py
--- a/src/dep_logic/tags/__init__.py
+++ b/src/dep_logic/tags/__init__.py
@@ -1,5 +1,12 @@
 from .platform import Platform, PlatformError
-from .tags import EnvSpec, InvalidWheelFilename, TagsError, UnsupportedImplementation
+from .tags import (
+    EnvCompatibility,
+    EnvSpec,
+    Implementation,
+    InvalidWheelFilename,
+    TagsError,
+    UnsupportedImplementation,
+)
 
 __all__ = [
     "Platform",
@@ -8,4 +15,6 @@
     "UnsupportedImplementation",
     "InvalidWheelFilename",
     "EnvSpec",
+    "Implementation",
+    "EnvCompatibility",
 ]
diff --git a/src/dep_logic/tags/tags.py b/src/dep_logic/tags/tags.py
--- a/src/dep_logic/tags/tags.py
+++ b/src/dep_logic/tags/tags.py
@@ -1,7 +1,9 @@
 from __future__ import annotations
 
+import sys
 from dataclasses import dataclass
-from platform import python_implementation, python_version
+from enum import IntEnum, auto
+from platform import python_implementation
 from typing import TYPE_CHECKING
 
 from ..specifiers import InvalidSpecifier, VersionSpecifier, parse_version_specifier
@@ -62,6 +64,15 @@
         else:
             return "pt"
 
+    @property
+    def capitalized(self) -> str:
+        if self.name == "pypy":
+            return "PyPy"
+        elif self.name == "pyston":
+            return "Pyston"
+        else:
+            return "CPython"
+
     @classmethod
     def current(cls) -> Self:
         import sysconfig
@@ -84,37 +95,56 @@
             )
 
 
+class EnvCompatibility(IntEnum):
+    INCOMPATIBLE = auto()
+    LOWER_OR_EQUAL = auto()
+    HIGHER = auto()
+
+
 @dataclass(frozen=True)
 class EnvSpec:
     requires_python: VersionSpecifier
-    platform: Platform
-    implementation: Implementation
+    platform: Platform | None = None
+    implementation: Implementation | None = None
+
+    def __str__(self) -> str:
+        parts = [str(self.requires_python)]
+        if self.platform is not None:
+            parts.append(str(self.platform))
+        if self.implementation is not None:
+            parts.append(self.implementation.name)
+        return f"({', '.join(parts)})"
 
     def as_dict(self) -> dict[str, str | bool]:
-        return {
-            "requires_python": str(self.requires_python),
-            "platform": str(self.platform),
-            "implementation": self.implementation.name,
-            "gil_disabled": self.implementation.gil_disabled,
-        }
+        result: dict[str, str | bool] = {"requires_python": str(self.requires_python)}
+        if self.platform is not None:
+            result["platform"] = str(self.platform)
+        if self.implementation is not None:
+            result["implementation"] = self.implementation.name
+            result["gil_disabled"] = self.implementation.gil_disabled
+        return result
 
     @classmethod
     def from_spec(
         cls,
         requires_python: str,
-        platform: str,
-        implementation: str = "cpython",
+        platform: str | None = None,
+        implementation: str | None = None,
         gil_disabled: bool = False,
     ) -> Self:
         return cls(
             _ensure_version_specifier(requires_python),
-            Platform.parse(platform),
-            Implementation.parse(implementation, gil_disabled=gil_disabled),
+            Platform.parse(platform) if platform else None,
+            Implementation.parse(implementation, gil_disabled=gil_disabled)
+            if implementation
+            else None,
         )
 
     @classmethod
     def current(cls) -> Self:
-        requires_python = _ensure_version_specifier(f"=={python_version()}")
+        # XXX: Strip pre-release and post-release tags
+        python_version = f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
+        requires_python = _ensure_version_specifier(f"=={python_version}")
         platform = Platform.current()
         implementation = Implementation.current()
         return cls(requires_python, platform, implementation)
@@ -122,8 +152,12 @@
     def _evaluate_python(
         self, python_tag: str, abi_tag: str
     ) -> tuple[int, int, int] | None:
+        """Return a tuple of (major, minor, abi) if the wheel is compatible with the environment, or None otherwise."""
         impl, major, minor = python_tag[:2], python_tag[2], python_tag[3:]
-        if impl not in [self.implementation.short, "py"]:
+        if self.implementation is not None and impl not in [
+            self.implementation.short,
+            "py",
+        ]:
             return None
         abi_impl = (
             abi_tag.split("_", 1)[0]
@@ -152,6 +186,8 @@
         return (int(major), int(minor or 0), 0 if abi_impl == "none" else 2)
 
     def _evaluate_platform(self, platform_tag: str) -> int | None:
+        if self.platform is None:
+            return -1
         platform_tags = [*self.platform.compatible_tags, "any"]
         if platform_tag not in platform_tags:
             return None
@@ -195,7 +231,41 @@
         )
 
     def markers(self) -> dict[str, str]:
-        return {
-            "implementation_name": self.implementation.name,
-            **self.platform.markers(),
-        }
+        result = {}
+        if self.platform is not None:
+            result.update(self.platform.markers())
+        if self.implementation is not None:
+            result.update(
+                implementation_name=self.implementation.name,
+                platform_python_implementation=self.implementation.capitalized,
+            )
+
+        return result
+
+    def compare(self, target: EnvSpec) -> EnvCompatibility:
+        if self == target:
+            return EnvCompatibility.LOWER_OR_EQUAL
+        if (self.requires_python & target.requires_python).is_empty():
+            return EnvCompatibility.INCOMPATIBLE
+        if (
+            self.implementation is not None
+            and target.implementation is not None
+            and self.implementation != target.implementation
+        ):
+            return EnvCompatibility.INCOMPATIBLE
+        if self.platform is None or target.platform is None:
+            return EnvCompatibility.LOWER_OR_EQUAL
+        if self.platform.arch != target.platform.arch:
+            return EnvCompatibility.INCOMPATIBLE
+        if type(self.platform.os) is not type(target.platform.os):
+            return EnvCompatibility.INCOMPATIBLE
+
+        if hasattr(self.platform.os, "major") and hasattr(self.platform.os, "minor"):
+            if (self.platform.os.major, self.platform.os.minor) <= (  # type: ignore[attr-defined]
+                target.platform.os.major,  # type: ignore[attr-defined]
+                target.platform.os.minor,  # type: ignore[attr-defined]
+            ):
+                return EnvCompatibility.LOWER_OR_EQUAL
+            else:
+                return EnvCompatibility.HIGHER
+        return EnvCompatibility.LOWER_OR_EQUAL
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
