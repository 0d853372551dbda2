"""create → exec → destroy of this checkout's sandboxes against another commit's, side by side in one run.

The other commit's tree is exported with ``git archive`` and its folders mapped into a ``nightshift``
package the way its pyproject's ``package-dir`` says (symlinks), so the old code runs unmodified.
Each version runs in its own worker process (``python sandbox_compare.py --serve BACKEND IMAGE``,
with PYTHONPATH choosing the version) that performs one cycle per line it reads; the parent
alternates the two, so host load hits both alike. Each cycle runs ``true`` and then a 64 KiB
command, the common shape of an agent's tool call.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMAND = "cat > /workspace/f <<'END'\n" + "x" * 65536 + "\nEND\nwc -c < /workspace/f"


def _package_view(tree: Path, view: Path) -> Path:
    """A folder holding ``nightshift/`` assembled from ``tree`` by its pyproject's package-dir."""
    mapping = tomllib.loads((tree / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    top = view / "nightshift"  # a real folder (links to the top package's files), so nothing lands in the tree
    top.mkdir(parents=True)
    for entry in (tree / mapping["nightshift"]).iterdir():
        (top / entry.name).symlink_to(entry)
    for package, folder in mapping.items():
        if package != "nightshift":
            (view.joinpath(*package.split("."))).symlink_to(tree / folder, target_is_directory=True)
    return view


def _export(rev: str, into: Path) -> Path:
    tree = into / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    tar_path = into / "tree.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(tree, filter="data")
    return _package_view(tree, into / "view")


class Worker:
    def __init__(self, label: str, pythonpath: Path, backend: str, image: str):
        env = {**os.environ, "PYTHONPATH": str(pythonpath)}
        self.label = label
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", backend, image], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.origin = self._read()["origin"]

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.label} worker died")
        return json.loads(line)

    def cycle(self) -> dict:
        self.proc.stdin.write("cycle\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(60)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def compare(rev: str, backends: list[str], rounds: int) -> int:
    sys.path.insert(0, str(REPO))
    from bench.sandbox_bench import image_for

    with tempfile.TemporaryDirectory(prefix="nightshift-compare-") as tmp:
        old_view = _export(rev, Path(tmp))
        new_view = _package_view(REPO, Path(tmp) / "new-view")
        load = Path("/proc/loadavg").read_text().split()[0]
        print(f"this checkout vs {rev}, {rounds} alternating rounds per backend, load {load}\n")
        print("| backend | version | create→exec×2→destroy p50 / p95 (ms) | create p50 | exec `true` p50 |"
              " exec 64 KiB p50 | destroy p50 | p50 ratio new/old |")
        print("|---|---|---|---|---|---|---|---|")
        for backend in backends:
            image = image_for(backend)
            workers = [Worker(rev, old_view, backend, image), Worker("this checkout", new_view, backend, image)]
            samples: dict[str, list[dict]] = {w.label: [] for w in workers}
            for w in workers:  # warm caches
                w.cycle()
            for i in range(rounds):
                for w in workers if i % 2 == 0 else workers[::-1]:
                    samples[w.label].append(w.cycle())
            for w in workers:
                w.close()
            old_p50 = _p([s["total"] for s in samples[rev]], 0.5)
            for w in workers:
                rows = samples[w.label]
                p50 = {key: _p([r[key] for r in rows], 0.5) for key in rows[0]}
                p95 = _p([r["total"] for r in rows], 0.95)
                ratio = f"{p50['total'] / old_p50:.2f}" if w.label != rev else "1.00"
                print(f"| {backend} | {w.label} ({w.origin}) | {p50['total']:.0f} / {p95:.0f} | {p50['create']:.0f} |"
                      f" {p50['exec_true']:.0f} | {p50['exec_64k']:.0f} | {p50['destroy']:.0f} | {ratio} |", flush=True)
    return 0


def serve(backend_name: str, image: str) -> int:
    import nightshift
    from nightshift.contracts import SandboxLimits, SandboxSpec
    from nightshift.sandbox.factory import backend_for

    limits = SandboxLimits(cpus=1, memory_mb=512, pids=128, disk_mb=256)
    backend = backend_for(backend_name, image)
    print(json.dumps({"origin": str(Path(nightshift.__file__).resolve().parent.parent.name)}), flush=True)
    for n, _ in enumerate(sys.stdin):
        t0 = time.perf_counter()
        box = backend.create(SandboxSpec(run_id="bench", trial_id=f"cmp{n}", limits=limits))
        t1 = time.perf_counter()
        assert box.exec("true", timeout_s=30).exit_code == 0
        t2 = time.perf_counter()
        result = box.exec(COMMAND, timeout_s=30)
        t3 = time.perf_counter()
        box.destroy()
        t4 = time.perf_counter()
        assert result.stdout.strip() == "65537", result
        print(json.dumps({"total": 1000 * (t4 - t0), "create": 1000 * (t1 - t0), "exec_true": 1000 * (t2 - t1),
                          "exec_64k": 1000 * (t3 - t2), "destroy": 1000 * (t4 - t3)}), flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        sys.exit(serve(sys.argv[2], sys.argv[3]))
    sys.exit("run bench/sandbox_bench.py --compare REV")
