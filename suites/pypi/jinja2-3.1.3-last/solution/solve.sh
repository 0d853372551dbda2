#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/src/jinja2/runtime.py b/src/jinja2/runtime.py
--- a/src/jinja2/runtime.py
+++ b/src/jinja2/runtime.py
@@ -625,7 +625,7 @@
 
     @property
     async def last(self) -> bool:  # type: ignore
-        return await self._peek_next() is not missing
+        return await self._peek_next() is missing
 
     @property
     async def nextitem(self) -> t.Union[t.Any, "Undefined"]:
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
