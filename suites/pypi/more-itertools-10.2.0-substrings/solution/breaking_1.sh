#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/more_itertools/more.py b/more_itertools/more.py
--- a/more_itertools/more.py
+++ b/more_itertools/more.py
@@ -884,7 +884,7 @@
     item_count = len(seq)
 
     # And the rest
-    for n in range(3, item_count + 1):
+    for n in range(2, item_count + 1):
         for i in range(item_count - n + 1):
             yield seq[i : i + n]
 
@@ -1915,7 +1915,7 @@
         return iter((obj,))
 
     try:
-        return iter(obj)
+        return None
     except TypeError:
         return iter((obj,))
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
