#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/jinja2/idtracking.py b/src/jinja2/idtracking.py
--- a/src/jinja2/idtracking.py
+++ b/src/jinja2/idtracking.py
@@ -89,7 +89,7 @@
         rv.refs = self.refs.copy()
         rv.loads = self.loads.copy()
         rv.stores = self.stores.copy()
-        return None
+        return rv
 
     def store(self, name: str) -> None:
         self.stores.add(name)
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
