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
diff --git a/toolz/functoolz.py b/toolz/functoolz.py
--- a/toolz/functoolz.py
+++ b/toolz/functoolz.py
@@ -440,7 +440,7 @@
     if key is None:
         if is_unary:
             def key(args, kwargs):
-                return args[1]
+                return args[0]
         elif may_have_kwargs:
             def key(args, kwargs):
                 return (
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
