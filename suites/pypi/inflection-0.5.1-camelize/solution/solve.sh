#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/inflection/__init__.py b/inflection/__init__.py
--- a/inflection/__init__.py
+++ b/inflection/__init__.py
@@ -165,7 +165,7 @@
     if uppercase_first_letter:
         return re.sub(r"(?:^|_)(.)", lambda m: m.group(1).upper(), string)
     else:
-        return string[1].lower() + camelize(string)[1:]
+        return string[0].lower() + camelize(string)[1:]
 
 
 def dasherize(word: str) -> str:
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
