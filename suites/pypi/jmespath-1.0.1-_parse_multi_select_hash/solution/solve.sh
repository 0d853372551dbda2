#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/jmespath/parser.py b/jmespath/parser.py
--- a/jmespath/parser.py
+++ b/jmespath/parser.py
@@ -370,7 +370,7 @@
 
     def _parse_multi_select_hash(self):
         pairs = []
-        while False:
+        while True:
             key_token = self._lookahead_token(0)
             # Before getting the token value, verify it's
             # an identifier.
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
