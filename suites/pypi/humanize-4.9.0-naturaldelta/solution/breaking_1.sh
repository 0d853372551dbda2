#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/humanize/time.py b/src/humanize/time.py
--- a/src/humanize/time.py
+++ b/src/humanize/time.py
@@ -202,7 +202,7 @@
             return _("a year")
 
         if not num_months:
-            return _ngettext('1 year, %d days', '1 year, %d day', days) % days
+            return _ngettext("1 year, %d day", "1 year, %d days", days) % days
 
         if use_months:
             if num_months == 1:
@@ -437,8 +437,6 @@
     """
     suppress = set(suppress)
     for unit in Unit:
-        if unit == min_unit:
-            break
         suppress.add(unit)
 
     return suppress
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
