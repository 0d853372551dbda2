#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/cachetools/__init__.py b/src/cachetools/__init__.py
--- a/src/cachetools/__init__.py
+++ b/src/cachetools/__init__.py
@@ -805,7 +805,7 @@
 
             def clear(self):
                 c = cache(self)
-                if c is not None:
+                if c is None:
                     c.clear()
 
         else:
diff --git a/src/cachetools/func.py b/src/cachetools/func.py
--- a/src/cachetools/func.py
+++ b/src/cachetools/func.py
@@ -72,7 +72,7 @@
     if maxsize is None:
         return _cache({}, None, typed)
     elif callable(maxsize):
-        return _cache(128, LRUCache(128), typed)(maxsize)
+        return _cache(LRUCache(128), 128, typed)(maxsize)
     else:
         return _cache(LRUCache(maxsize), maxsize, typed)
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
