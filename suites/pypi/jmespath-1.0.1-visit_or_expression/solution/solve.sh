#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/jmespath/visitor.py b/jmespath/visitor.py
--- a/jmespath/visitor.py
+++ b/jmespath/visitor.py
@@ -245,6 +245,8 @@
 
     def visit_or_expression(self, node, value):
         matched = self.visit(node['children'][0], value)
+        if self._is_false(matched):
+            matched = self.visit(node['children'][1], value)
         return matched
 
     def visit_and_expression(self, node, value):
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
