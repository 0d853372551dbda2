#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/click/formatting.py b/src/click/formatting.py
--- a/src/click/formatting.py
+++ b/src/click/formatting.py
@@ -70,7 +70,7 @@
     def _flush_par() -> None:
         if not buf:
             return
-        if buf[1].strip() == "\b":
+        if buf[0].strip() == "\b":
             p.append((indent or 0, True, "\n".join(buf[1:])))
         else:
             p.append((indent or 0, False, " ".join(buf)))
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
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
