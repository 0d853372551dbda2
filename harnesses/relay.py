"""The in-sandbox half of the model proxy: loopback TCP → the unix socket bound in from the host.

Copied into the sandbox and run there with the image's python3 (stdlib only, no nightshift import):

    python3 relay.py SOCKET PORT -- COMMAND...

It listens on 127.0.0.1:PORT (the agent's OPENAI_BASE_URL), pipes every connection to SOCKET (the
host's per-trial proxy), starts COMMAND in its own process group and exits with its exit code. It also
holds one request open on the proxy's stop route: when the proxy ends the trial (a limit reached, the
gateway failing) the answer arrives and the relay kills the agent's whole process group. The sandbox
has no other network: the socket is the only way out.
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading

STOPPED_EXIT = 125  # the agent was stopped by the proxy (the trial's status says why)


def pipe(source: socket.socket, target: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            target.sendall(chunk)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def serve(listener: socket.socket, path: str) -> None:
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            continue
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()


def watch_stop(path: str, agent: subprocess.Popen) -> None:
    """Block on the proxy's stop route; any answer (or the proxy going away) stops the agent."""
    try:
        control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        control.connect(path)
        control.sendall(b"GET /nightshift/stop HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n")
        control.recv(1)
    except OSError:
        pass
    if agent.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(agent.pid, signal.SIGKILL)
        sys.stderr.write("nightshift: the model proxy stopped this agent\n")
        sys.stderr.flush()
        os._exit(STOPPED_EXIT)


def main(argv: list) -> int:
    path, port, separator, *command = argv
    if separator != "--" or not command:
        sys.stderr.write("usage: relay.py SOCKET PORT -- COMMAND...\n")
        return 2
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(port)))
    listener.listen(256)
    threading.Thread(target=serve, args=(listener, path), daemon=True).start()
    agent = subprocess.Popen(command, start_new_session=True)
    threading.Thread(target=watch_stop, args=(path, agent), daemon=True).start()
    code = agent.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(agent.pid, signal.SIGKILL)  # what the agent left running in its group ends with it
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
