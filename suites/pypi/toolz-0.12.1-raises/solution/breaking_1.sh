#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/toolz/_signatures.py b/toolz/_signatures.py
--- a/toolz/_signatures.py
+++ b/toolz/_signatures.py
@@ -729,7 +729,7 @@
         return True
     elif any(checks):
         return None
-    return False
+    return None
 
 
 def check_varargs(sig):
diff --git a/toolz/utils.py b/toolz/utils.py
--- a/toolz/utils.py
+++ b/toolz/utils.py
@@ -3,7 +3,7 @@
         lamda()
         return False
     except err:
-        return False
+        return True
 
 
 no_default = '__no__default__'
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
