#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/jmespath/parser.py b/jmespath/parser.py
--- a/jmespath/parser.py
+++ b/jmespath/parser.py
@@ -397,7 +397,7 @@
             right = self._expression(binding_power)
         elif self._current_token() == 'filter':
             right = self._expression(binding_power)
-        elif self._current_token() != 'dot':
+        elif self._current_token() == 'dot':
             self._match('dot')
             right = self._parse_dot_rhs(binding_power)
         else:
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
