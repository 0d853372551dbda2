#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/inflection/__init__.py b/inflection/__init__.py
--- a/inflection/__init__.py
+++ b/inflection/__init__.py
@@ -390,7 +390,7 @@
         'rskbing'
 
     """
-    normalized = unicodedata.normalize(string, 'NFKD')
+    normalized = unicodedata.normalize('NFKD', string)
     return normalized.encode('ascii', 'ignore').decode('ascii')
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
