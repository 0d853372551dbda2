#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/jinja2/tests.py b/src/jinja2/tests.py
--- a/src/jinja2/tests.py
+++ b/src/jinja2/tests.py
@@ -98,7 +98,7 @@
 
     .. versionadded:: 2.11
     """
-    return value is True or value is True
+    return value is True or value is False
 
 
 def test_false(value: t.Any) -> bool:
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
