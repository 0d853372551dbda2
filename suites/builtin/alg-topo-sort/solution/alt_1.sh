#!/usr/bin/env bash
# An alternative correct solution (repeatedly take the smallest node whose dependencies are done, instead of
# the oracle's heap of in-degrees): validate-suite checks that it passes every hidden test.
set -euo pipefail
cat > graphs.py <<'EOF2'
"""Graph helpers for the build planner."""


def toposort(graph):
    needs = {}
    for node, deps in graph.items():
        needs.setdefault(node, set()).update(deps)
        for dep in deps:
            needs.setdefault(dep, set())
    done, order = set(), []
    while len(order) < len(needs):
        ready = sorted(n for n in needs if n not in done and needs[n] <= done)
        if not ready:
            raise ValueError("dependency cycle")
        order.append(ready[0])
        done.add(ready[0])
    return order
EOF2
