"""Reading a ``docker exec``'s output whole: the engine's multiplexed stream, demultiplexed into capped buffers.

docker-py's own readers (``exec_start(socket=True)``, ``exec_run``) read the raw socket under the buffered reader
that parsed the HTTP response, so output the engine sent in the same packet as the response headers is lost: under
load, 20 of 600 quick ``pwd`` execs came back empty with exit code 0. Here the stream is read from that buffered
reader itself.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid

from nightshift.sandbox.output import CappedBuffer


def exec_output(api, exec_id: str):
    """Start the exec and return its output as the buffered reader the HTTP response was parsed from (the
    headers' packet may carry the first output too)."""
    response = api._post_json(api._url("/exec/{0}/start", exec_id), headers={"Connection": "Upgrade",
                              "Upgrade": "tcp"}, data={"Tty": False, "Detach": False}, stream=True)
    api._raise_for_status(response)
    reader = response.raw._fp.fp
    reader.response = response  # kept alive while the reader is read: its collection would close the socket
    # no read timeout: a command may be silent for longer than the client's timeout (a quiet pip install, a
    # test run), and a timed-out read would end the stream with the rest of the output unread. A sandbox's
    # deadline is its own (DockerSandbox._wait_exit kills the command, which ends the stream)
    reader.raw._sock.settimeout(None)
    return reader


def pump(stream, out: CappedBuffer, err: CappedBuffer) -> None:
    """Demultiplex docker's exec stream (frames: 8-byte header, 1 = stdout / 2 = stderr, big-endian size)."""

    try:
        while len(header := stream.read(8)) == 8:
            size = int.from_bytes(header[4:], "big")
            chunk = stream.read(size) if size else b""
            (err if header[0] == 2 else out).feed(chunk)
            if len(chunk) < size:
                break
    except (OSError, ValueError):  # ValueError: the reader was closed under us (a killed exec)
        pass
    finally:
        for closing in (stream.response.close, stream.close):  # the response closes its reader, not the socket
            with contextlib.suppress(OSError, ValueError):
                closing()


def run_captured(api, container_id: str, command: list[str], user: str, environment: dict[str, str],
                 cap_bytes: int = 1 << 20) -> tuple[int, str]:
    """Run ``command`` in a running container and wait: (exit code, stdout and stderr interleaved, capped)."""
    exec_id = api.exec_create(container_id, command, user=user, environment=environment)["Id"]
    both = CappedBuffer(cap_bytes)
    reader = threading.Thread(target=pump, args=(exec_output(api, exec_id), both, both), daemon=True)
    reader.start()
    reader.join()  # the stream ends when the command and whatever holds its output have exited
    return exit_code(api, exec_id), both.text()


def exit_code(api, exec_id: str, wait_s: float = 30) -> int:
    """The exec's exit code once the engine records it: its stream can end a moment before that."""
    deadline = time.monotonic() + wait_s
    while (code := api.exec_inspect(exec_id)["ExitCode"]) is None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"docker exec {exec_id[:12]}: its output ended but no exit code after {wait_s:.0f} s")
        time.sleep(0.05)
    return int(code)


TRIAL_USER = "65534:65534"  # what trial commands run as in the images nightshift builds (sandbox/base_image.py)


def run_in_image(client, image_id: str, command: list[str], user: str = TRIAL_USER, cap_bytes: int = 1 << 20,
                 name: str = "nsb-scan") -> tuple[int, str]:
    """``command`` once in a throwaway, network-less container of ``image_id``, as ``user`` (a scan reads as a trial
    would: what that user cannot read is hidden); the container is removed whatever happens."""
    container = client.containers.run(image_id, command=["sleep", "infinity"], user="0:0", detach=True,
                                      network_disabled=True, name=f"{name}-{uuid.uuid4().hex[:8]}")
    try:
        return run_captured(client.api, container.id, command, user, {}, cap_bytes=cap_bytes)
    finally:
        with contextlib.suppress(Exception):  # already gone (the engine restarted): nothing to remove
            container.remove(force=True)
