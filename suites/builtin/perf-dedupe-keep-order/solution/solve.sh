#!/usr/bin/env bash
set -euo pipefail
cat > dedupe.py <<'EOF'
"""Helpers for the catalogue importer."""


def unique_in_order(items):
    """Return the items of ``items`` without repeats, each at its first position."""
    seen = set()
    kept = []
    for item in items:
        if item not in seen:
            seen.add(item)
            kept.append(item)
    return kept
EOF
