"""The syscalls no trial may make, as one policy rendered for both backends.

Why each group is refused (docs/SANDBOX.md has the table): a trial needs files, processes, pipes,
threads, signals, its own loopback and unix sockets; it never needs the kernel keyring (a channel
between trials: keys are per uid and can be made world-viewable), io_uring (a large attack surface
that bypasses per-syscall checks), kernel modules, clocks, mounts or namespaces, BPF, perf or
reboot. The list covers every syscall Docker's default profile refuses to a container without
capabilities, plus io_uring (Docker 20.10's profile still allows it). ``ptrace`` and
``process_vm_*`` stay allowed, as in Docker on kernels >= 4.8: a trial sees only its own pid
namespace and runs as its own uid (sandbox/uids.py), so it can trace only its own processes.

bubblewrap: compiled to BPF by libseccomp (``sandbox/seccomp_compile.py``, run by the system Python
with Debian's python3-seccomp; ``NIGHTSHIFT_SECCOMP_PYTHON`` names another) and passed with
``bwrap --seccomp FD``. docker: the same lists as a seccomp profile (``security_opt``), which
replaces Docker's default. Refused calls fail with EPERM; ``clone3`` with ENOSYS so that glibc falls
back to ``clone``, whose namespace flags can be checked.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from nightshift.errors import SandboxError

_DENY = {
    "keyring": ["add_key", "keyctl", "request_key"],
    "io_uring": ["io_uring_setup", "io_uring_enter", "io_uring_register"],
    "kernel modules": ["init_module", "finit_module", "delete_module", "create_module", "query_module",
                       "get_kernel_syms"],
    "clocks": ["clock_settime", "clock_adjtime", "settimeofday", "stime", "adjtimex"],
    "mounts and namespaces": ["mount", "umount", "umount2", "pivot_root", "unshare", "setns", "fsopen", "fsconfig",
                              "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr", "chroot"],
    "kernel and host": ["bpf", "perf_event_open", "userfaultfd", "kexec_load", "kexec_file_load", "reboot",
                        "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "vhangup", "iopl",
                        "ioperm", "lookup_dcookie", "nfsservctl", "sysfs", "_sysctl", "ustat", "uselib", "vm86",
                        "vm86old", "fanotify_init", "kcmp"],
    "file handles": ["open_by_handle_at", "name_to_handle_at"],
    "NUMA policy": ["get_mempolicy", "set_mempolicy", "mbind", "move_pages"],
}
# clone with a namespace flag: NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
_CLONE_NS_BITS = [0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000]

POLICY: dict[str, Any] = {
    "extra_arches": {"x86_64": ["x86", "x32"], "aarch64": ["arm"]},
    "deny": [{"names": sorted(n for names in _DENY.values() for n in names), "errno": "EPERM"},
             {"names": ["clone3"], "errno": "ENOSYS"}],
    "deny_flags": [{"name": "clone", "arg": 0, "bits": _CLONE_NS_BITS, "errno": "EPERM"}],
}
_COMPILER = Path(__file__).with_name("seccomp_compile.py")


class SeccompUnavailable(SandboxError):
    pass


def denied_groups() -> dict[str, list[str]]:
    return {group: list(names) for group, names in _DENY.items()}


def policy_hash() -> str:
    return hashlib.sha256(json.dumps(POLICY, sort_keys=True).encode()).hexdigest()[:16]


class SeccompFilter:
    """A compiled BPF program; ``open_fd`` gives bubblewrap a fresh descriptor to read it from."""

    def __init__(self, bpf: bytes):
        self.bpf = bpf

    def open_fd(self) -> int:
        fd = os.memfd_create("nightshift-seccomp", 0)  # no host file for anyone to swap
        os.write(fd, self.bpf)
        os.lseek(fd, 0, os.SEEK_SET)
        return fd


@functools.cache
def compiled() -> SeccompFilter:
    """The policy as BPF for this machine's architecture (compiled once per process, ~0.1 s)."""
    python = os.environ.get("NIGHTSHIFT_SECCOMP_PYTHON", "/usr/bin/python3")
    try:
        done = subprocess.run([python, "-I", str(_COMPILER)], input=json.dumps(POLICY).encode(),
                              capture_output=True, timeout=60)
    except OSError as exc:
        raise SeccompUnavailable(f"cannot run {python} to compile the seccomp filter ({exc}); "
                                 f"apt-get install python3-seccomp or set NIGHTSHIFT_SECCOMP_PYTHON") from exc
    if done.returncode != 0 or not done.stdout or len(done.stdout) % 8:
        raise SeccompUnavailable(f"{python} could not compile the seccomp filter: "
                                 f"{done.stderr.decode(errors='replace').strip()[-400:]}; "
                                 f"apt-get install python3-seccomp (libseccomp's Python binding)")
    return SeccompFilter(done.stdout)


def docker_profile() -> str:
    """The same policy as a Docker seccomp profile (JSON for ``security_opt=["seccomp=..."]``)."""
    arches = ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"] if os.uname().machine == "x86_64" else \
        ["SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM"]
    errnos = {"EPERM": 1, "ENOSYS": 38}
    syscalls = [{"names": rule["names"], "action": "SCMP_ACT_ERRNO", "errnoRet": errnos[rule["errno"]]}
                for rule in POLICY["deny"]]
    for rule in POLICY["deny_flags"]:
        syscalls += [{"names": [rule["name"]], "action": "SCMP_ACT_ERRNO", "errnoRet": errnos[rule["errno"]],
                      "args": [{"index": rule["arg"], "value": bit, "valueTwo": bit, "op": "SCMP_CMP_MASKED_EQ"}]}
                     for bit in rule["bits"]]
    return json.dumps({"defaultAction": "SCMP_ACT_ALLOW", "architectures": arches, "syscalls": syscalls})
