"""Quick docker execs on a loaded host: how many come back without their output (sandbox/docker_exec.py).

Four sandboxes each run ``pwd`` (cwd /tmp) N times while four busy loops hold the cores; an answer other than
``/tmp`` is counted. ``--reader socket`` reads the stream the way docker-py's ``exec_start(socket=True)``
does (the raw socket under the HTTP response's buffered reader), side by side with nightshift's reader.

    sudo .venv/bin/python -m bench.docker_exec_bench [--execs 150] [--reader both]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from docker.utils.socket import frames_iter

from nightshift.contracts import SandboxLimits, SandboxSpec
from nightshift.sandbox import docker_backend
from nightshift.sandbox.docker_exec import exec_output
from nightshift.sandbox.factory import backend_for
from nightshift.sandbox.images import latest_build

SMALL = SandboxLimits(cpus=1, memory_mb=128, pids=64, disk_mb=64, output_kb=64, cpu_seconds=60)


def socket_reader(api, exec_id: str):
    """docker-py's reader: the raw socket under the response (what came with the headers is not in it)."""
    return _SocketStream(api.exec_start(exec_id, socket=True))


class _SocketStream:
    """The raw socket framed back into the reader interface docker_exec.pump reads (read(n), close())."""

    def __init__(self, sock):
        self.sock, self.buffer, self.frames = sock, b"", None
        self.response = self

    def read(self, n: int) -> bytes:
        if self.frames is None:
            self.frames = frames_iter(self.sock, tty=False)
        while len(self.buffer) < n:
            try:
                kind, chunk = next(self.frames)
            except StopIteration:
                break
            self.buffer += bytes([kind, 0, 0, 0]) + len(chunk).to_bytes(4, "big") + chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def close(self) -> None:
        self.sock.close()


def measure(reader: str, execs: int, sandboxes: int) -> tuple[int, int, float]:
    build = latest_build()
    if build is None:
        sys.exit("no sandbox image built: run `nightshift build-image` (root) first")
    backend = backend_for("docker", build.image_id)
    if reader == "socket":
        docker_backend.exec_output = socket_reader  # type: ignore[assignment]
    else:
        docker_backend.exec_output = exec_output
    wrong: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="nightshift-exec-bench-"))

    def one(k: int) -> None:
        box = backend.create(SandboxSpec(run_id="bench", trial_id=f"exec{k}", limits=SMALL,
                                         workspace_source=folder))
        try:
            for _ in range(execs):
                if (out := box.exec("pwd", timeout_s=30, cwd="/tmp").stdout) != "/tmp\n":
                    wrong.append(out)
        finally:
            box.destroy()

    started = time.monotonic()
    threads = [threading.Thread(target=one, args=(k,)) for k in range(sandboxes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(wrong), execs * sandboxes, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--execs", type=int, default=150, help="execs per sandbox (4 sandboxes)")
    parser.add_argument("--reader", choices=["nightshift", "socket", "both"], default="both")
    parser.add_argument("--smoke", action="store_true", help="a few execs: that it runs and prints, no target")
    args = parser.parse_args()
    execs = 5 if args.smoke else args.execs
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    try:
        for reader in (["nightshift", "socket"] if args.reader == "both" else [args.reader]):
            wrong, total, seconds = measure(reader, execs, 4)
            print(f"{reader:>10} reader: {wrong} of {total} quick execs came back without their output "
                  f"({seconds:.1f} s, 4 busy loops)")
    finally:
        for process in busy:
            process.kill()
    if args.smoke:
        print("smoke size: the command ran and printed its figures; targets are not judged at this size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
