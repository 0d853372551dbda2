#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/click/decorators.py b/src/click/decorators.py
--- a/src/click/decorators.py
+++ b/src/click/decorators.py
@@ -307,7 +307,7 @@
     if callable(name):
         return command(cls=cls, **attrs)(name)
 
-    return command(cls, name, **attrs)
+    return command(name, cls, **attrs)
 
 
 def _param_memo(f: t.Callable[..., t.Any], param: Parameter) -> None:
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
