#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/setup.py b/setup.py
--- a/setup.py
+++ b/setup.py
@@ -34,7 +34,7 @@
 
 
 setup(name='isodate',
-      version='0.6.0',
+      version='0.6.1',
       packages=['isodate', 'isodate.tests'],
       package_dir={'': 'src'},
 
@@ -61,12 +61,14 @@
                    'License :: OSI Approved :: BSD License',
                    'Operating System :: OS Independent',
                    'Programming Language :: Python',
-                   'Programming Language :: Python :: 2.6',
+                   'Programming Language :: Python :: 2',
                    'Programming Language :: Python :: 2.7',
-                   'Programming Language :: Python :: 3.3',
-                   'Programming Language :: Python :: 3.4',
-                   'Programming Language :: Python :: 3.5',
+                   'Programming Language :: Python :: 3',
                    'Programming Language :: Python :: 3.6',
+                   'Programming Language :: Python :: 3.7',
+                   'Programming Language :: Python :: 3.8',
+                   'Programming Language :: Python :: 3.9',
+                   'Programming Language :: Python :: 3.10',
                    'Programming Language :: Python :: Implementation :: PyPy',
                    'Topic :: Internet',
                    ('Topic :: Software Development :'
diff --git a/src/isodate/duration.py b/src/isodate/duration.py
--- a/src/isodate/duration.py
+++ b/src/isodate/duration.py
@@ -180,7 +180,9 @@
                 newday = maxdays
             else:
                 newday = other.day
-            newdt = other.replace(year=newyear, month=newmonth, day=newday)
+            newdt = other.replace(
+                year=int(newyear), month=int(newmonth), day=int(newday)
+            )
             # does a timedelta + date/datetime
             return self.tdelta + newdt
         except AttributeError:
@@ -264,7 +266,9 @@
                 newday = maxdays
             else:
                 newday = other.day
-            newdt = other.replace(year=newyear, month=newmonth, day=newday)
+            newdt = other.replace(
+                year=int(newyear), month=int(newmonth), day=int(newday)
+            )
             return newdt - self.tdelta
         except AttributeError:
             # other probably was not compatible with data/datetime
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
