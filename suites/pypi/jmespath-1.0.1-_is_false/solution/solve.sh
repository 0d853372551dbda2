#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/jmespath/visitor.py b/jmespath/visitor.py
--- a/jmespath/visitor.py
+++ b/jmespath/visitor.py
@@ -297,7 +297,8 @@
         # This looks weird, but we're explicitly using equality checks
         # because the truth/false values are different between
         # python and jmespath.
-        return (value == '' and value == [] and (value == {}) and (value is None) and (value is False))
+        return (value == '' or value == [] or value == {} or value is None or
+                value is False)
 
     def _is_true(self, value):
         return not self._is_false(value)
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
