#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/jmespath/__init__.py b/jmespath/__init__.py
--- a/jmespath/__init__.py
+++ b/jmespath/__init__.py
@@ -1,7 +1,7 @@
 from jmespath import parser
 from jmespath.visitor import Options
 
-__version__ = '1.0.0'
+__version__ = '1.0.1'
 
 
 def compile(expression):
diff --git a/jmespath/ast.py b/jmespath/ast.py
--- a/jmespath/ast.py
+++ b/jmespath/ast.py
@@ -35,7 +35,7 @@
 
 
 def index(index):
-    return {"type": "index", "value": index, "children": []}
+    return None
 
 
 def index_expression(children):
diff --git a/jmespath/parser.py b/jmespath/parser.py
--- a/jmespath/parser.py
+++ b/jmespath/parser.py
@@ -489,7 +489,7 @@
             lex_position, actual_value, actual_type, message)
 
     def _free_cache_entries(self):
-        for key in random.sample(self._CACHE.keys(), int(self._MAX_SIZE / 2)):
+        for key in random.sample(list(self._CACHE.keys()), int(self._MAX_SIZE / 2)):
             self._CACHE.pop(key, None)
 
     @classmethod
diff --git a/jmespath/visitor.py b/jmespath/visitor.py
--- a/jmespath/visitor.py
+++ b/jmespath/visitor.py
@@ -6,13 +6,13 @@
 
 
 def _equals(x, y):
-    if _is_special_integer_case(x, y):
+    if _is_special_number_case(x, y):
         return False
     else:
         return x == y
 
 
-def _is_special_integer_case(x, y):
+def _is_special_number_case(x, y):
     # We need to special case comparing 0 or 1 to
     # True/False.  While normally comparing any
     # integer other than 0/1 to True/False will always
@@ -29,10 +29,10 @@
     # Also need to consider that:
     # >>> 0 in [True, False]
     # True
-    if type(x) is int and (x == 0 or x == 1):
-        return y is True or y is False
-    elif type(y) is int and (y == 0 or y == 1):
-        return x is True or x is False
+    if _is_actual_number(x) and x in (0, 1):
+        return isinstance(y, bool)
+    elif _is_actual_number(y) and y in (0, 1):
+        return isinstance(x, bool)
 
 
 def _is_comparable(x):
@@ -51,7 +51,7 @@
     # True
     # >>> isinstance(True, int)
     # True
-    if x is True or x is False:
+    if isinstance(x, bool):
         return False
     return isinstance(x, Number)
 
@@ -257,7 +257,7 @@
 
     def visit_not_expression(self, node, value):
         original_result = self.visit(node['children'][0], value)
-        if type(original_result) is int and original_result == 0:
+        if _is_actual_number(original_result) and original_result == 0:
             # Special case for 0, !0 should be false, not true.
             # 0 is not a special cased integer in jmespath.
             return False
diff --git a/setup.py b/setup.py
--- a/setup.py
+++ b/setup.py
@@ -7,7 +7,7 @@
 
 setup(
     name='jmespath',
-    version='1.0.0',
+    version='1.0.1',
     description='JSON Matching Expressions',
     long_description=io.open('README.rst', encoding='utf-8').read(),
     author='James Saryerwinnie',
@@ -27,6 +27,8 @@
         'Programming Language :: Python :: 3.7',
         'Programming Language :: Python :: 3.8',
         'Programming Language :: Python :: 3.9',
+        'Programming Language :: Python :: 3.10',
+        'Programming Language :: Python :: 3.11',
         'Programming Language :: Python :: Implementation :: CPython',
         'Programming Language :: Python :: Implementation :: PyPy',
     ],
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
