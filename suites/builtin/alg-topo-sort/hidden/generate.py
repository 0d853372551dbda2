"""Hidden stress tests for alg-topo-sort: seeded random inputs, expected outputs from the reference below.

Run on the grading host as python3 -I -S generate.py --seed N --out DIR (stdlib only).
"""
import argparse
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE, ENTRY = 'graphs', 'toposort'

import heapq


def reference(graph):
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
        raise ValueError("cycle")
    return order


def inputs(rng):
    for _ in range(40):
        names = rng.sample([a + b for a in "abcdefgh" for b in "xyz"], rng.randint(1, 12))
        graph = {}
        for i, name in enumerate(names):
            earlier = names[:i]
            graph[name] = rng.sample(earlier, rng.randint(0, min(3, len(earlier))))
            if rng.random() < 0.2 and earlier:
                graph[name].append(rng.choice(earlier))
        for name in rng.sample(names, len(names) // 3):
            if not graph[name]:
                del graph[name]
        yield (graph,)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    # distinct inputs only: each one is a test named by its content hash
    cases = list({repr(tuple(args)): tuple(args) for args in inputs(rng)}.values())
    files = os.path.join(options.out, "files")
    os.makedirs(files, exist_ok=True)
    shutil.copy(os.path.join(HERE, "runner.py"), files)
    with open(os.path.join(files, "inputs.json"), "w") as handle:
        json.dump({"module": MODULE, "entry_point": ENTRY, "per_input_s": 2, "inputs": [repr(c) for c in cases]}, handle)
    expected = [repr(reference(*args)) for args in cases]
    with open(os.path.join(options.out, "hidden.json"), "w") as handle:
        json.dump({"tests": [{"name": "stress", "command": "python3 -S /grader/hidden/runner.py",
                               "expected": expected, "inputs": [repr(c) for c in cases]}]}, handle)


main()
