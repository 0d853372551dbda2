#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/humanize/number.py b/src/humanize/number.py
--- a/src/humanize/number.py
+++ b/src/humanize/number.py
@@ -354,6 +354,8 @@
     """
     try:
         number = float(value)
+        if not math.isfinite(number):
+            return _format_not_finite(number)
     except (TypeError, ValueError):
         return str(value)
     whole_number = int(number)
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
