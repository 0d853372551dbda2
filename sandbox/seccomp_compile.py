"""Compile the sandbox's seccomp policy to a BPF program with libseccomp (Debian's python3-seccomp).

Run by the *system* Python (the binding is built for it, not for the project's virtualenv):
``/usr/bin/python3 seccomp_compile.py < policy.json > filter.bpf``. Standard library and ``seccomp``
only. The policy is sandbox/seccomp.py's ``POLICY``; names a given architecture lacks are skipped and
listed on stderr.
"""

import errno
import json
import os
import sys

import seccomp

ARCHES = {"x86_64": seccomp.Arch.X86_64, "x86": seccomp.Arch.X86, "x32": seccomp.Arch.X32,
          "aarch64": seccomp.Arch.AARCH64, "arm": seccomp.Arch.ARM}


def main() -> int:
    policy = json.load(sys.stdin)
    bpf = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in policy["extra_arches"].get(os.uname().machine, []):
        bpf.add_arch(ARCHES[name])  # the 32-bit ABIs the kernel also accepts get the same rules
    skipped = []
    for rule in policy["deny"]:
        action = seccomp.ERRNO(getattr(errno, rule["errno"]))
        for name in rule["names"]:
            try:
                bpf.add_rule(action, name)
            except (RuntimeError, ValueError, OSError):
                skipped.append(name)
    for rule in policy["deny_flags"]:  # clone(flags) with any of these bits: one rule per bit
        for bit in rule["bits"]:
            bpf.add_rule(seccomp.ERRNO(getattr(errno, rule["errno"])), rule["name"],
                         seccomp.Arg(rule["arg"], seccomp.MASKED_EQ, bit, bit))
    sys.stdout.flush()
    bpf.export_bpf(sys.stdout)
    if skipped:
        print("not on this architecture: " + " ".join(sorted(set(skipped))), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
