#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/jmespath/visitor.py b/jmespath/visitor.py
--- a/jmespath/visitor.py
+++ b/jmespath/visitor.py
@@ -288,7 +288,7 @@
             return None
         collected = []
         for element in base:
-            current = self.visit(element, node['children'][1])
+            current = self.visit(node['children'][1], element)
             if current is not None:
                 collected.append(current)
         return collected
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
