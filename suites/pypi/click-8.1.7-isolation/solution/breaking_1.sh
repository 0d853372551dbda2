#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/click/parser.py b/src/click/parser.py
--- a/src/click/parser.py
+++ b/src/click/parser.py
@@ -520,7 +520,7 @@
             # short option code and will instead raise the no option
             # error.
             if arg[:2] not in self._opt_prefixes:
-                self._match_short_opt(arg, state)
+                self._match_short_opt(state, arg)
                 return
 
             if not self.ignore_unknown_options:
diff --git a/src/click/testing.py b/src/click/testing.py
--- a/src/click/testing.py
+++ b/src/click/testing.py
@@ -303,7 +303,7 @@
         def should_strip_ansi(
             stream: t.Optional[t.IO[t.Any]] = None, color: t.Optional[bool] = None
         ) -> bool:
-            if color is not None:
+            if color is None:
                 return not default_color
             return not color
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
