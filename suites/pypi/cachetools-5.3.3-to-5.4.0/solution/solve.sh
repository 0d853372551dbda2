#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/cachetools/__init__.py b/src/cachetools/__init__.py
--- a/src/cachetools/__init__.py
+++ b/src/cachetools/__init__.py
@@ -13,7 +13,7 @@
     "cachedmethod",
 )
 
-__version__ = "5.3.3"
+__version__ = "5.4.0"
 
 import collections
 import collections.abc
@@ -241,6 +241,10 @@
     """Most Recently Used (MRU) cache implementation."""
 
     def __init__(self, maxsize, getsizeof=None):
+        from warnings import warn
+
+        warn("MRUCache is deprecated", DeprecationWarning, stacklevel=2)
+
         Cache.__init__(self, maxsize, getsizeof)
         self.__order = collections.OrderedDict()
 
diff --git a/src/cachetools/func.py b/src/cachetools/func.py
--- a/src/cachetools/func.py
+++ b/src/cachetools/func.py
@@ -82,6 +82,10 @@
     up to `maxsize` results based on a Most Recently Used (MRU)
     algorithm.
     """
+    from warnings import warn
+
+    warn("@mru_cache is deprecated", DeprecationWarning, stacklevel=2)
+
     if maxsize is None:
         return _cache({}, None, typed)
     elif callable(maxsize):
diff --git a/src/cachetools/keys.py b/src/cachetools/keys.py
--- a/src/cachetools/keys.py
+++ b/src/cachetools/keys.py
@@ -1,6 +1,6 @@
 """Key functions for memoizing decorators."""
 
-__all__ = ("hashkey", "methodkey", "typedkey")
+__all__ = ("hashkey", "methodkey", "typedkey", "typedmethodkey")
 
 
 class _HashedTuple(tuple):
@@ -55,3 +55,8 @@
     key += tuple(type(v) for v in args)
     key += tuple(type(v) for _, v in sorted(kwargs.items()))
     return key
+
+
+def typedmethodkey(self, *args, **kwargs):
+    """Return a typed cache key for use with cached methods."""
+    return typedkey(*args, **kwargs)
diff --git a/tox.ini b/tox.ini
--- a/tox.ini
+++ b/tox.ini
@@ -32,7 +32,7 @@
 deps =
     flake8
     flake8-black; implementation_name == "cpython"
-    black==22.12.0; implementation_name == "cpython"
+    black==22.12.0; implementation_name == "cpython" and python_version < "3.8"
     flake8-bugbear
     flake8-import-order
 commands =
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
