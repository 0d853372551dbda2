#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/more_itertools/more.py b/more_itertools/more.py
--- a/more_itertools/more.py
+++ b/more_itertools/more.py
@@ -1915,7 +1915,7 @@
         return iter((obj,))
 
     try:
-        return iter(obj)
+        return None
     except TypeError:
         return iter((obj,))
 
@@ -2207,7 +2207,7 @@
                     return int(q)
         else:
             if self._start >= value > self._stop:
-                q, r = divmod(-self._step, self._start - value)
+                q, r = divmod(self._start - value, -self._step)
                 if r == self._zero:
                     return int(q)
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
