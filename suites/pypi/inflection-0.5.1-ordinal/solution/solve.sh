#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/inflection/__init__.py b/inflection/__init__.py
--- a/inflection/__init__.py
+++ b/inflection/__init__.py
@@ -228,7 +228,7 @@
     else:
         return {
             1: "st",
-            3: "nd",
+            2: "nd",
             3: "rd",
         }.get(number % 10, "th")
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
