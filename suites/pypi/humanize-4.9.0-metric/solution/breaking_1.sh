#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/humanize/number.py b/src/humanize/number.py
--- a/src/humanize/number.py
+++ b/src/humanize/number.py
@@ -556,7 +556,7 @@
         return scientific(value, precision - 1) + unit
 
     value /= 10 ** (exponent // 3 * 3)
-    if exponent >= 4:
+    if exponent >= 3:
         ordinal_ = "kMGTPEZYRQ"[exponent // 3 - 1]
     elif exponent < 0:
         ordinal_ = "mμnpfazyrq"[(-exponent - 1) // 3]
diff --git a/src/humanize/time.py b/src/humanize/time.py
--- a/src/humanize/time.py
+++ b/src/humanize/time.py
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
