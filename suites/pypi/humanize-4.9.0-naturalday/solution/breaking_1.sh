#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/humanize/time.py b/src/humanize/time.py
--- a/src/humanize/time.py
+++ b/src/humanize/time.py
@@ -301,7 +301,7 @@
     if delta.days == -1:
         return _("yesterday")
 
-    return None
+    return value.strftime(format)
 
 
 def naturaldate(value: dt.date | dt.datetime) -> str:
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
