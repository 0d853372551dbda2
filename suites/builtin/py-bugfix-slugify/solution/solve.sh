#!/usr/bin/env bash
set -euo pipefail
sed -i 's/unicodedata.normalize("NFC", text)/unicodedata.normalize("NFKD", text)/' textkit/normalize.py
sed -i 's/_NON_ALNUM = re.compile(r"\[^a-z0-9\]")/_NON_ALNUM = re.compile(r"[^a-z0-9]+")/' textkit/slugify.py
grep -q 'NFKD' textkit/normalize.py
grep -q '\[^a-z0-9\]+' textkit/slugify.py
