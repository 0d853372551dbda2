#!/usr/bin/env bash
set -euo pipefail
python3 - <<'EOF'
from pathlib import Path
p = Path("pager/mathutil.py")
s = p.read_text()
s = s.replace("    return total // per_page\n", "    return max(1, -(-total // per_page))\n")
p.write_text(s)
EOF
grep -q 'max(1, -(-total // per_page))' pager/mathutil.py
