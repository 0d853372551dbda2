#!/usr/bin/env bash
set -euo pipefail
cat > graphs.py <<'EOF'
"""Graph helpers for the build planner."""
import heapq


def toposort(graph):
    """Return the nodes of ``graph`` (node -> list of dependencies) in dependency order."""
    nodes = set(graph)
    for deps in graph.values():
        nodes.update(deps)
    indegree = {n: 0 for n in nodes}
    users = {n: [] for n in nodes}
    for node, deps in graph.items():
        for dep in set(deps):
            indegree[node] += 1
            users[dep].append(node)
    ready = [n for n in nodes if indegree[n] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for user in users[node]:
            indegree[user] -= 1
            if indegree[user] == 0:
                heapq.heappush(ready, user)
    if len(order) != len(nodes):
        raise ValueError("dependency cycle")
    return order
EOF
