#!/usr/bin/env bash
patch_file=$(mktemp)
cat > "$patch_file" <<'NIGHTSHIFT_PATCH_EOF'
diff --git a/bin/update-tables.py b/bin/update-tables.py
--- a/bin/update-tables.py
+++ b/bin/update-tables.py
@@ -54,6 +54,19 @@
 MAX_RETRIES = int(os.environ.get('MAX_RETRIES', '6'))
 BACKOFF_FACTOR = float(os.environ.get('BACKOFF_FACTOR', '0.1'))
 
+# Hangul Jamo is a decomposed form of Hangul Syllables, see
+# see https://www.unicode.org/faq/korean.html#3
+#     https://github.com/ridiculousfish/widecharwidth/pull/17
+#     https://github.com/jquast/ucs-detect/issues/9
+#     https://devblogs.microsoft.com/oldnewthing/20201009-00/?p=104351
+# "Conjoining Jamo are divided into three classes: L, V, T (Leading
+#  consonant, Vowel, Trailing consonant). A Hangul Syllable consists of
+#  <LV> or <LVT> sequences."
+HANGUL_JAMO_ZEROWIDTH = (
+    *range(0x1160, 0x1200),  # Hangul Jungseong Filler .. Hangul Jongseong Ssangnieun
+    *range(0xD7B0, 0xD800),  # Hangul Jungseong O-Yeo  .. Undefined Character of Hangul Jamo Extended-B
+)
+
 
 def _bisearch(ucs, table):
     """A copy of wcwwidth._bisearch, to prevent having issues when depending on code that imports
@@ -112,11 +125,11 @@
     properties: tuple[str, ...]
     comment: str
 
-    def filter_by_category(self, category_codes: str, wide: int) -> bool:
+    def filter_by_category_width(self, wide: int) -> bool:
         """
-        Return whether entry matches given category code and displayed width.
-
-        Categories are described here, https://www.unicode.org/reports/tr44/#GC_Values_Table
+        Return whether entry matches displayed width.
+
+        Parses both DerivedGeneralCategory.txt and EastAsianWidth.txt
         """
         if self.code_range is None:
             return False
@@ -146,13 +159,12 @@
         return wide == 1
 
     @staticmethod
-    def parse_category_values(category_codes: str,
-                              table_iter: Iterator[TableEntry],
-                              wide: int) -> set[tuple[int, int]]:
+    def parse_width_category_values(table_iter: Iterator[TableEntry],
+                                    wide: int) -> set[tuple[int, int]]:
         """Parse value ranges of unicode data files, by given category and width."""
         return {n
                 for entry in table_iter
-                if entry.filter_by_category(category_codes, wide)
+                if entry.filter_by_category_width(wide)
                 for n in list(range(entry.code_range[0], entry.code_range[1]))}
 
 
@@ -326,18 +338,19 @@
     for version in fetch_unicode_versions():
         # parse typical 'wide' characters by categories 'W' and 'F',
         table[version] = parse_category(fname=UnicodeDataFile.EastAsianWidth(version),
-                                        category_codes=('W', 'F'),
                                         wide=2)
 
         # subtract(!) wide characters that were defined above as 'W' category in EastAsianWidth,
         # but also zero-width category 'Mn' or 'Mc' in DerivedGeneralCategory!
-        table[version].values.discard(parse_category(fname=UnicodeDataFile.DerivedGeneralCategory(version),
-                                                     category_codes=('Mn', 'Mc'),
-                                                     wide=0).values)
+        table[version].values = table[version].values.difference(parse_category(
+            fname=UnicodeDataFile.DerivedGeneralCategory(version),
+            wide=0).values)
+
+        # Also subtract Hangul Jamo Vowels and Hangul Trailing Consonants
+        table[version].values = table[version].values.difference(HANGUL_JAMO_ZEROWIDTH)
 
         # finally, join with atypical 'wide' characters defined by category 'Sk',
         table[version].values.update(parse_category(fname=UnicodeDataFile.DerivedGeneralCategory(version),
-                                                    category_codes=('Sk',),
                                                     wide=2).values)
     return UnicodeTableRenderCtx('WIDE_EASTASIAN', table)
 
@@ -352,11 +365,13 @@
     for version in fetch_unicode_versions():
         # Determine values of zero-width character lookup table by the following category codes
         table[version] = parse_category(fname=UnicodeDataFile.DerivedGeneralCategory(version),
-                                        category_codes=('Me', 'Mn', 'Mc', 'Cf', 'Zl', 'Zp', 'Sk'),
                                         wide=0)
 
-        # And, include NULL
+        # Include NULL
         table[version].values.add(0)
+
+        # Add Hangul Jamo Vowels and Hangul Trailing Consonants
+        table[version].values.update(HANGUL_JAMO_ZEROWIDTH)
     return UnicodeTableRenderCtx('ZERO_WIDTH', table)
 
 
@@ -501,9 +516,9 @@
 
 
 @functools.cache
-def parse_category(fname: str, category_codes: Container[str], wide: int) -> TableDef:
+def parse_category(fname: str, wide: int) -> TableDef:
     """Parse value ranges of unicode data files, by given categories into string tables."""
-    print(f'parsing {fname} category_codes={",".join(category_codes)}: ', end='', flush=True)
+    print(f'parsing {fname}, wide={wide}: ', end='', flush=True)
 
     with open(fname, encoding='utf-8') as f:
         table_iter = parse_unicode_table(f)
@@ -512,7 +527,7 @@
         version = next(table_iter).comment.strip()
         # and "date string" from second line
         date = next(table_iter).comment.split(':', 1)[1].strip()
-        values = TableEntry.parse_category_values(category_codes, table_iter, wide)
+        values = TableEntry.parse_width_category_values(table_iter, wide)
     print('ok')
     return TableDef(version, date, values)
 
diff --git a/bin/verify-table-integrity.py b/bin/verify-table-integrity.py
--- a/bin/verify-table-integrity.py
+++ b/bin/verify-table-integrity.py
@@ -63,9 +63,30 @@
 import logging
 
 
+def bisearch_pair(ucs, table):
+    """
+    A copy of wcwidth._bisearch() but also returns the range of matched values.
+    """
+    lbound = 0
+    ubound = len(table) - 1
+
+    if ucs < table[0][0] or ucs > table[ubound][1]:
+        return (0, None, None)
+    while ubound >= lbound:
+        mid = (lbound + ubound) // 2
+        if ucs > table[mid][1]:
+            lbound = mid + 1
+        elif ucs < table[mid][0]:
+            ubound = mid - 1
+        else:
+            return (1, table[mid][0], table[mid][1])
+
+    return (0, None, None)
+
+
 def main(log: logging.Logger):
-    # local
-    from wcwidth import ZERO_WIDTH, WIDE_EASTASIAN, _bisearch, list_versions
+    from wcwidth import ZERO_WIDTH, WIDE_EASTASIAN, list_versions
+
     reversed_uni_versions = list(reversed(list_versions()))
     tables = {'ZERO_WIDTH': ZERO_WIDTH,
               'WIDE_EASTASIAN': WIDE_EASTASIAN}
@@ -81,14 +102,21 @@
             other_table = tables[other_table_name][version]
             for start_range, stop_range in curr_table:
                 for unichar_n in range(start_range, stop_range):
-                    if not _bisearch(unichar_n, next_table):
-                        log.info(f'value {hex(unichar_n)} in table_name={table_name}'
-                                 f' version={version} is not defined in next_version={next_version}'
-                                 f' from inclusive range {hex(start_range)}-{hex(stop_range)}')
-                    if _bisearch(unichar_n, other_table):
-                        log.error(f'value {hex(unichar_n)} in table_name={table_name}'
-                                  f' version={version} is duplicated in other_table_name={other_table_name}'
-                                  f' from inclusive range {hex(start_range)}-{hex(stop_range)}')
+                    result, _, _ = bisearch_pair(unichar_n, next_table)
+                    if not result:
+                        log.info(
+                            f'value 0x{unichar_n:05x} in table_name={table_name}'
+                            f' version={version} is not defined in next_version={next_version}'
+                            f' from inclusive range {hex(start_range)}-{hex(stop_range)}'
+                        )
+                    result, lbound, ubound = bisearch_pair(unichar_n, other_table)
+                    if result:
+                        log.error(
+                            f'value 0x{unichar_n:05x} in table_name={table_name}'
+                            f' version={version} is duplicated in other_table_name={other_table_name}'
+                            f' from inclusive range 0x{start_range:05x}-0x{stop_range:05x} of'
+                            f' {table_name} against 0x{lbound:05x}-0x{ubound:05x} in {other_table_name}'
+                        )
                         errors += 1
     if errors:
         log.error(f'{errors} errors, exit 1')
diff --git a/bin/wcwidth-browser.py b/bin/wcwidth-browser.py
--- a/bin/wcwidth-browser.py
+++ b/bin/wcwidth-browser.py
@@ -116,7 +116,7 @@
         """
         self.characters = []
         letters_o = ('o' * width)
-        for (begin, end) in ZERO_WIDTH[unicode_version]:
+        for (begin, end) in ZERO_WIDTH[_wcmatch_version(unicode_version)]:
             for val in [_val for _val in
                         range(begin, end + 1)
                         if _val <= LIMIT_UCS]:
diff --git a/code_templates/python_table_width.py.j2 b/code_templates/python_table_width.py.j2
deleted file mode 100644
diff --git a/setup.py b/setup.py
--- a/setup.py
+++ b/setup.py
@@ -44,7 +44,7 @@
     setuptools.setup(
         name='wcwidth',
         # NOTE: manually manage __version__ in wcwidth/__init__.py !
-        version='0.2.12',
+        version='0.2.13',
         description=(
             "Measures the displayed width of unicode strings in a terminal"),
         long_description=codecs.open(
diff --git a/wcwidth/__init__.py b/wcwidth/__init__.py
--- a/wcwidth/__init__.py
+++ b/wcwidth/__init__.py
@@ -26,4 +26,4 @@
 # We also used pkg_resources to load unicode version tables from version.json,
 # generated by bin/update-tables.py, but some environments are unable to
 # import pkg_resources for one reason or another, yikes!
-__version__ = '0.2.12'
+__version__ = '0.2.13'
diff --git a/wcwidth/table_wide.py b/wcwidth/table_wide.py
--- a/wcwidth/table_wide.py
+++ b/wcwidth/table_wide.py
@@ -1,7 +1,7 @@
 """
 Exports WIDE_EASTASIAN table keyed by supporting unicode version level.
 
-This code generated by wcwidth/bin/update-tables.py on 2023-09-14 15:45:33 UTC.
+This code generated by wcwidth/bin/update-tables.py on 2024-01-06 01:39:49 UTC.
 """
 WIDE_EASTASIAN = {
     '4.1.0': (
@@ -15,9 +15,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312c,),  # Bopomofo Letter B       ..Bopomofo Letter Gn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031b7,),  # Ideographic Annotation L..Bopomofo Final Letter H
@@ -53,9 +54,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312c,),  # Bopomofo Letter B       ..Bopomofo Letter Gn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031b7,),  # Ideographic Annotation L..Bopomofo Final Letter H
@@ -91,9 +93,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031b7,),  # Ideographic Annotation L..Bopomofo Final Letter H
@@ -123,16 +126,15 @@
         # Date: 2009-06-09, 17:47:00 PDT [KW]
         #
         (0x01100, 0x0115f,),  # Hangul Choseong Kiyeok  ..Hangul Choseong Filler
-        (0x011a3, 0x011a7,),  # Hangul Jungseong A-eu   ..Hangul Jungseong O-yae
-        (0x011fa, 0x011ff,),  # Hangul Jongseong Kiyeok-..Hangul Jongseong Ssangni
-        (0x02329, 0x0232a,),  # Left-pointing Angle Brac..Right-pointing Angle Bra
-        (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
-        (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
-        (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
-        (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x02329, 0x0232a,),  # Left-pointing Angle Brac..Right-pointing Angle Bra
+        (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
+        (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
+        (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
+        (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031b7,),  # Ideographic Annotation L..Bopomofo Final Letter H
@@ -145,8 +147,6 @@
         (0x0a490, 0x0a4c6,),  # Yi Radical Qot          ..Yi Radical Ke
         (0x0a960, 0x0a97c,),  # Hangul Choseong Tikeut-m..Hangul Choseong Ssangyeo
         (0x0ac00, 0x0d7a3,),  # Hangul Syllable Ga      ..Hangul Syllable Hih
-        (0x0d7b0, 0x0d7c6,),  # Hangul Jungseong O-yeo  ..Hangul Jungseong Araea-e
-        (0x0d7cb, 0x0d7fb,),  # Hangul Jongseong Nieun-r..Hangul Jongseong Phieuph
         (0x0f900, 0x0faff,),  # Cjk Compatibility Ideogr..(nil)
         (0x0fe10, 0x0fe19,),  # Presentation Form For Ve..Presentation Form For Ve
         (0x0fe30, 0x0fe52,),  # Presentation Form For Ve..Small Full Stop
@@ -165,16 +165,15 @@
         # Date: 2010-08-17, 12:17:00 PDT [KW]
         #
         (0x01100, 0x0115f,),  # Hangul Choseong Kiyeok  ..Hangul Choseong Filler
-        (0x011a3, 0x011a7,),  # Hangul Jungseong A-eu   ..Hangul Jungseong O-yae
-        (0x011fa, 0x011ff,),  # Hangul Jongseong Kiyeok-..Hangul Jongseong Ssangni
-        (0x02329, 0x0232a,),  # Left-pointing Angle Brac..Right-pointing Angle Bra
-        (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
-        (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
-        (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
-        (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x02329, 0x0232a,),  # Left-pointing Angle Brac..Right-pointing Angle Bra
+        (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
+        (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
+        (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
+        (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -187,8 +186,6 @@
         (0x0a490, 0x0a4c6,),  # Yi Radical Qot          ..Yi Radical Ke
         (0x0a960, 0x0a97c,),  # Hangul Choseong Tikeut-m..Hangul Choseong Ssangyeo
         (0x0ac00, 0x0d7a3,),  # Hangul Syllable Ga      ..Hangul Syllable Hih
-        (0x0d7b0, 0x0d7c6,),  # Hangul Jungseong O-yeo  ..Hangul Jungseong Araea-e
-        (0x0d7cb, 0x0d7fb,),  # Hangul Jongseong Nieun-r..Hangul Jongseong Phieuph
         (0x0f900, 0x0faff,),  # Cjk Compatibility Ideogr..(nil)
         (0x0fe10, 0x0fe19,),  # Presentation Form For Ve..Presentation Form For Ve
         (0x0fe30, 0x0fe52,),  # Presentation Form For Ve..Small Full Stop
@@ -209,16 +206,15 @@
         # Date: 2011-09-19, 18:46:00 GMT [KW]
         #
         (0x01100, 0x0115f,),  # Hangul Choseong Kiyeok  ..Hangul Choseong Filler
-        (0x011a3, 0x011a7,),  # Hangul Jungseong A-eu   ..Hangul Jungseong O-yae
-        (0x011fa, 0x011ff,),  # Hangul Jongseong Kiyeok-..Hangul Jongseong Ssangni
-        (0x02329, 0x0232a,),  # Left-pointing Angle Brac..Right-pointing Angle Bra
-        (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
-        (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
-        (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
-        (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x02329, 0x0232a,),  # Left-pointing Angle Brac..Right-pointing Angle Bra
+        (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
+        (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
+        (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
+        (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -231,8 +227,6 @@
         (0x0a490, 0x0a4c6,),  # Yi Radical Qot          ..Yi Radical Ke
         (0x0a960, 0x0a97c,),  # Hangul Choseong Tikeut-m..Hangul Choseong Ssangyeo
         (0x0ac00, 0x0d7a3,),  # Hangul Syllable Ga      ..Hangul Syllable Hih
-        (0x0d7b0, 0x0d7c6,),  # Hangul Jungseong O-yeo  ..Hangul Jungseong Araea-e
-        (0x0d7cb, 0x0d7fb,),  # Hangul Jongseong Nieun-r..Hangul Jongseong Phieuph
         (0x0f900, 0x0faff,),  # Cjk Compatibility Ideogr..(nil)
         (0x0fe10, 0x0fe19,),  # Presentation Form For Ve..Presentation Form For Ve
         (0x0fe30, 0x0fe52,),  # Presentation Form For Ve..Small Full Stop
@@ -258,9 +252,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -298,9 +293,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -338,9 +334,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -378,9 +375,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -451,9 +449,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312d,),  # Bopomofo Letter B       ..Bopomofo Letter Ih
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -493,7 +492,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -562,9 +562,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312e,),  # Bopomofo Letter B       ..Bopomofo Letter O With D
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -606,7 +607,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -673,9 +675,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -717,7 +720,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -786,9 +790,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -832,7 +837,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -905,9 +911,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031ba,),  # Ideographic Annotation L..Bopomofo Letter Zy
@@ -950,7 +957,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -1023,9 +1031,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031e3,),  # Ideographic Annotation L..Cjk Stroke Q
@@ -1043,8 +1052,7 @@
         (0x0fe68, 0x0fe6b,),  # Small Reverse Solidus   ..Small Commercial At
         (0x0ff01, 0x0ff60,),  # Fullwidth Exclamation Ma..Fullwidth Right White Pa
         (0x0ffe0, 0x0ffe6,),  # Fullwidth Cent Sign     ..Fullwidth Won Sign
-        (0x16fe0, 0x16fe4,),  # Tangut Iteration Mark   ..Khitan Small Script Fill
-        (0x16ff0, 0x16ff1,),  # Vietnamese Alternate Rea..Vietnamese Alternate Rea
+        (0x16fe0, 0x16fe3,),  # Tangut Iteration Mark   ..Old Chinese Iteration Ma
         (0x17000, 0x187f7,),  # (nil)
         (0x18800, 0x18cd5,),  # Tangut Component-001    ..Khitan Small Script Char
         (0x18d00, 0x18d08,),  # (nil)
@@ -1069,7 +1077,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -1144,9 +1153,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031e3,),  # Ideographic Annotation L..Cjk Stroke Q
@@ -1164,8 +1174,7 @@
         (0x0fe68, 0x0fe6b,),  # Small Reverse Solidus   ..Small Commercial At
         (0x0ff01, 0x0ff60,),  # Fullwidth Exclamation Ma..Fullwidth Right White Pa
         (0x0ffe0, 0x0ffe6,),  # Fullwidth Cent Sign     ..Fullwidth Won Sign
-        (0x16fe0, 0x16fe4,),  # Tangut Iteration Mark   ..Khitan Small Script Fill
-        (0x16ff0, 0x16ff1,),  # Vietnamese Alternate Rea..Vietnamese Alternate Rea
+        (0x16fe0, 0x16fe3,),  # Tangut Iteration Mark   ..Old Chinese Iteration Ma
         (0x17000, 0x187f7,),  # (nil)
         (0x18800, 0x18cd5,),  # Tangut Component-001    ..Khitan Small Script Char
         (0x18d00, 0x18d08,),  # (nil)
@@ -1193,7 +1202,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -1270,9 +1280,10 @@
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
         (0x02ff0, 0x02ffb,),  # Ideographic Description ..Ideographic Description
-        (0x03000, 0x0303e,),  # Ideographic Space       ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x03000, 0x03029,),  # Ideographic Space       ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031e3,),  # Ideographic Annotation L..Cjk Stroke Q
@@ -1290,8 +1301,7 @@
         (0x0fe68, 0x0fe6b,),  # Small Reverse Solidus   ..Small Commercial At
         (0x0ff01, 0x0ff60,),  # Fullwidth Exclamation Ma..Fullwidth Right White Pa
         (0x0ffe0, 0x0ffe6,),  # Fullwidth Cent Sign     ..Fullwidth Won Sign
-        (0x16fe0, 0x16fe4,),  # Tangut Iteration Mark   ..Khitan Small Script Fill
-        (0x16ff0, 0x16ff1,),  # Vietnamese Alternate Rea..Vietnamese Alternate Rea
+        (0x16fe0, 0x16fe3,),  # Tangut Iteration Mark   ..Old Chinese Iteration Ma
         (0x17000, 0x187f7,),  # (nil)
         (0x18800, 0x18cd5,),  # Tangut Component-001    ..Khitan Small Script Char
         (0x18d00, 0x18d08,),  # (nil)
@@ -1321,7 +1331,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
@@ -1395,9 +1406,10 @@
         (0x02e80, 0x02e99,),  # Cjk Radical Repeat      ..Cjk Radical Rap
         (0x02e9b, 0x02ef3,),  # Cjk Radical Choke       ..Cjk Radical C-simplified
         (0x02f00, 0x02fd5,),  # Kangxi Radical One      ..Kangxi Radical Flute
-        (0x02ff0, 0x0303e,),  # Ideographic Description ..Ideographic Variation In
-        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
-        (0x03099, 0x030ff,),  # Combining Katakana-hirag..Katakana Digraph Koto
+        (0x02ff0, 0x03029,),  # Ideographic Description ..Hangzhou Numeral Nine
+        (0x03030, 0x0303e,),  # Wavy Dash               ..Ideographic Variation In
+        (0x03041, 0x03096,),  # Hiragana Letter Small A ..Hiragana Letter Small Ke
+        (0x0309b, 0x030ff,),  # Katakana-hiragana Voiced..Katakana Digraph Koto
         (0x03105, 0x0312f,),  # Bopomofo Letter B       ..Bopomofo Letter Nn
         (0x03131, 0x0318e,),  # Hangul Letter Kiyeok    ..Hangul Letter Araeae
         (0x03190, 0x031e3,),  # Ideographic Annotation L..Cjk Stroke Q
@@ -1415,8 +1427,7 @@
         (0x0fe68, 0x0fe6b,),  # Small Reverse Solidus   ..Small Commercial At
         (0x0ff01, 0x0ff60,),  # Fullwidth Exclamation Ma..Fullwidth Right White Pa
         (0x0ffe0, 0x0ffe6,),  # Fullwidth Cent Sign     ..Fullwidth Won Sign
-        (0x16fe0, 0x16fe4,),  # Tangut Iteration Mark   ..Khitan Small Script Fill
-        (0x16ff0, 0x16ff1,),  # Vietnamese Alternate Rea..Vietnamese Alternate Rea
+        (0x16fe0, 0x16fe3,),  # Tangut Iteration Mark   ..Old Chinese Iteration Ma
         (0x17000, 0x187f7,),  # (nil)
         (0x18800, 0x18cd5,),  # Tangut Component-001    ..Khitan Small Script Char
         (0x18d00, 0x18d08,),  # (nil)
@@ -1446,7 +1457,8 @@
         (0x1f3cf, 0x1f3d3,),  # Cricket Bat And Ball    ..Table Tennis Paddle And
         (0x1f3e0, 0x1f3f0,),  # House Building          ..European Castle
         (0x1f3f4, 0x1f3f4,),  # Waving Black Flag
-        (0x1f3f8, 0x1f43e,),  # Badminton Racquet And Sh..Paw Prints
+        (0x1f3f8, 0x1f3fa,),  # Badminton Racquet And Sh..Amphora
+        (0x1f400, 0x1f43e,),  # Rat                     ..Paw Prints
         (0x1f440, 0x1f440,),  # Eyes
         (0x1f442, 0x1f4fc,),  # Ear                     ..Videocassette
         (0x1f4ff, 0x1f53d,),  # Prayer Beads            ..Down-pointing Small Red
diff --git a/wcwidth/table_zero.py b/wcwidth/table_zero.py
--- a/wcwidth/table_zero.py
+++ b/wcwidth/table_zero.py
@@ -1,7 +1,7 @@
 """
 Exports ZERO_WIDTH table keyed by supporting unicode version level.
 
-This code generated by wcwidth/bin/update-tables.py on 2023-10-19 20:57:31 UTC.
+This code generated by wcwidth/bin/update-tables.py on 2024-01-04 07:14:52 UTC.
 """
 ZERO_WIDTH = {
     '4.1.0': (
@@ -107,6 +107,7 @@
         (0x0102c, 0x01032,),  # Myanmar Vowel Sign Aa   ..Myanmar Vowel Sign Ai
         (0x01036, 0x01039,),  # Myanmar Sign Anusvara   ..Myanmar Sign Virama
         (0x01056, 0x01059,),  # Myanmar Vowel Sign Vocal..Myanmar Vowel Sign Vocal
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135f, 0x0135f,),  # Ethiopic Combining Gemination Mark
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -133,6 +134,7 @@
         (0x0a806, 0x0a806,),  # Syloti Nagri Sign Hasanta
         (0x0a80b, 0x0a80b,),  # Syloti Nagri Sign Anusvara
         (0x0a823, 0x0a827,),  # Syloti Nagri Vowel Sign ..Syloti Nagri Vowel Sign
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe23,),  # Combining Ligature Left ..Combining Double Tilde R
@@ -256,6 +258,7 @@
         (0x0102c, 0x01032,),  # Myanmar Vowel Sign Aa   ..Myanmar Vowel Sign Ai
         (0x01036, 0x01039,),  # Myanmar Sign Anusvara   ..Myanmar Sign Virama
         (0x01056, 0x01059,),  # Myanmar Vowel Sign Vocal..Myanmar Vowel Sign Vocal
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135f, 0x0135f,),  # Ethiopic Combining Gemination Mark
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -286,6 +289,7 @@
         (0x0a806, 0x0a806,),  # Syloti Nagri Sign Hasanta
         (0x0a80b, 0x0a80b,),  # Syloti Nagri Sign Anusvara
         (0x0a823, 0x0a827,),  # Syloti Nagri Vowel Sign ..Syloti Nagri Vowel Sign
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe23,),  # Combining Ligature Left ..Combining Double Tilde R
@@ -418,6 +422,7 @@
         (0x01071, 0x01074,),  # Myanmar Vowel Sign Geba ..Myanmar Vowel Sign Kayah
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135f, 0x0135f,),  # Ethiopic Combining Gemination Mark
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -461,6 +466,7 @@
         (0x0aa29, 0x0aa36,),  # Cham Vowel Sign Aa      ..Cham Consonant Sign Wa
         (0x0aa43, 0x0aa43,),  # Cham Consonant Sign Final Ng
         (0x0aa4c, 0x0aa4d,),  # Cham Consonant Sign Fina..Cham Consonant Sign Fina
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe26,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -599,6 +605,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135f, 0x0135f,),  # Ethiopic Combining Gemination Mark
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -662,6 +669,7 @@
         (0x0aac1, 0x0aac1,),  # Tai Viet Tone Mai Tho
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe26,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -805,6 +813,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -870,6 +879,7 @@
         (0x0aac1, 0x0aac1,),  # Tai Viet Tone Mai Tho
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe26,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -1016,6 +1026,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -1084,6 +1095,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe26,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -1237,6 +1249,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -1305,6 +1318,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe26,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -1459,6 +1473,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -1527,6 +1542,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe26,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -1680,6 +1696,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -1751,6 +1768,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2d,),  # Combining Ligature Left ..Combining Conjoining Mac
@@ -1928,6 +1946,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -1997,6 +2016,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -2184,6 +2204,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -2254,6 +2275,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -2455,6 +2477,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -2525,6 +2548,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -2739,6 +2763,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -2810,6 +2835,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -3033,6 +3059,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -3104,6 +3131,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -3334,6 +3362,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -3405,6 +3434,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -3635,6 +3665,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01714,),  # Tagalog Vowel Sign I    ..Tagalog Sign Virama
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -3707,6 +3738,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -3949,6 +3981,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01715,),  # Tagalog Vowel Sign I    ..Tagalog Sign Pamudpod
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -4020,6 +4053,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -4270,6 +4304,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01715,),  # Tagalog Vowel Sign I    ..Tagalog Sign Pamudpod
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -4341,6 +4376,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
@@ -4600,6 +4636,7 @@
         (0x01082, 0x0108d,),  # Myanmar Consonant Sign S..Myanmar Sign Shan Counci
         (0x0108f, 0x0108f,),  # Myanmar Sign Rumai Palaung Tone-5
         (0x0109a, 0x0109d,),  # Myanmar Sign Khamti Tone..Myanmar Vowel Sign Aiton
+        (0x01160, 0x011ff,),  # Hangul Jungseong Filler ..Hangul Jongseong Ssangni
         (0x0135d, 0x0135f,),  # Ethiopic Combining Gemin..Ethiopic Combining Gemin
         (0x01712, 0x01715,),  # Tagalog Vowel Sign I    ..Tagalog Sign Pamudpod
         (0x01732, 0x01734,),  # Hanunoo Vowel Sign I    ..Hanunoo Sign Pamudpod
@@ -4671,6 +4708,7 @@
         (0x0aaf5, 0x0aaf6,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Virama
         (0x0abe3, 0x0abea,),  # Meetei Mayek Vowel Sign ..Meetei Mayek Vowel Sign
         (0x0abec, 0x0abed,),  # Meetei Mayek Lum Iyek   ..Meetei Mayek Apun Iyek
+        (0x0d7b0, 0x0d7ff,),  # Hangul Jungseong O-yeo  ..(nil)
         (0x0fb1e, 0x0fb1e,),  # Hebrew Point Judeo-spanish Varika
         (0x0fe00, 0x0fe0f,),  # Variation Selector-1    ..Variation Selector-16
         (0x0fe20, 0x0fe2f,),  # Combining Ligature Left ..Combining Cyrillic Titlo
diff --git a/wcwidth/wcwidth.py b/wcwidth/wcwidth.py
--- a/wcwidth/wcwidth.py
+++ b/wcwidth/wcwidth.py
@@ -162,8 +162,11 @@
     Given a unicode string, return its printable length on a terminal.
 
     :param str pwcs: Measure width of given unicode string.
-    :param int n: When ``n`` is None (default), return the length of the
-        entire string, otherwise width the first ``n`` characters specified.
+    :param int n: When ``n`` is None (default), return the length of the entire
+        string, otherwise only the first ``n`` characters are measured. This
+        argument exists only for compatibility with the C POSIX function
+        signature. It is suggested instead to use python's string slicing
+        capability, ``wcswidth(pwcs[:n])``
     :param str unicode_version: An explicit definition of the unicode version
         level to use for determination, may be ``auto`` (default), which uses
         the Environment Variable, ``UNICODE_VERSION`` if defined, or the latest
NIGHTSHIFT_PATCH_EOF
cd /workspace || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
