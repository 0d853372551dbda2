"""The verifier side of a Harbor task: what its test scripts fetch, what replaces it, and the wrapper.

Harbor runs ``tests/test.sh`` as root with the network on, and most real scripts install their own
tooling at that moment (apt-get, the uv installer, ``uvx --with pytest==X``). A nightshift sandbox
never has a network, and every command runs as its unprivileged uid (the agent's code runs during
verification too). So ``scan`` finds those lines; the importer bakes what they fetch into a verifier
layer of the task's image at build time (apt packages, uv, a wheelhouse of the pinned tools) and
``rewrite`` turns each line into a recorded no-op. A line that still needs the network after that
makes the case invalid, with the line named.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from nightshift.suites.harbor.paths import LOGS_ROOT, TESTS_IN_SANDBOX

TOOLCHAIN = "/opt/nightshift-verifier"
DEFAULT_UV = "0.7.13"
FETCH_ONLY_PACKAGES = {"curl", "wget", "ca-certificates", "gnupg", "gpg", "apt-transport-https"}
_UV_INSTALLER = re.compile(r"\b(curl|wget)\b.*astral\.sh/uv(?:/(?P<version>[0-9][0-9.]*))?/install\.sh")
_PIP_UV = re.compile(r"^\s*(?:python3?\s+-m\s+)?pip3?\s+install\s+(?:-\S+\s+)*uv(?:==(?P<version>\S+))?\s*$")
_APT = re.compile(r"^\s*(?:sudo\s+)?(?:DEBIAN_FRONTEND=\S+\s+)?apt(?:-get)?\s+(?P<verb>update|install|upgrade)\b"
                  r"(?P<args>.*)$")
_NETWORK = [
    (re.compile(r"\b(curl|wget)\s"), "downloads a file"),
    (re.compile(r"\bgit\s+(clone|fetch|pull)\b"), "fetches a git repository"),
    (re.compile(r"\b(pip3?|python3?\s+-m\s+pip)\s+install\b(?!.*--no-index)"), "installs from PyPI"),
    (re.compile(r"\b(npm|pnpm|yarn)\s+(install|ci|add)\b|\bnpx\s"), "installs from npm"),
    (re.compile(r"\bgo\s+(get|install|mod\s+download)\b"), "downloads Go modules"),
    (re.compile(r"\bcargo\s+(install|fetch)\b"), "downloads crates"),
    (re.compile(r"\bgem\s+install\b"), "installs gems"),
]
_UV_OPTS_WITH_VALUE = {"--with", "-w", "--from", "--python", "-p", "--with-requirements", "--index-url",
                       "--extra-index-url", "--find-links", "-f", "--directory", "--project"}


@dataclass
class Substitution:
    """One line of a test script replaced because it needed the network at verify time."""

    where: str  # tests/test.sh:7
    was: str
    now: str


@dataclass
class VerifierNeeds:
    """Everything the task's test scripts fetch at verify time, found by ``scan``."""

    uv_version: str | None = None
    requirements: list[str] = field(default_factory=list)
    apt_packages: list[str] = field(default_factory=list)
    python_requests: list[str] = field(default_factory=list)
    network_lines: list[str] = field(default_factory=list)  # "tests/test.sh:9: `git clone ...` (why)"

    @property
    def uses_uv(self) -> bool:
        return self.uv_version is not None or bool(self.requirements)

    @property
    def needs_layer(self) -> bool:
        return self.uses_uv or bool(self.apt_packages)


def _logical_lines(text: str) -> list[tuple[int, int, str]]:
    """(first line number, last line number, the line with backslash continuations joined)."""
    out, start, buffer = [], 0, ""
    number = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not buffer:
            start = number
        if raw.rstrip().endswith("\\"):
            buffer += raw.rstrip()[:-1] + " "
            continue
        out.append((start, number, buffer + raw))
        buffer = ""
    if buffer:
        out.append((start, number, buffer))
    return out


def _commands(line: str) -> list[str]:
    """The simple commands of one line (split on ; && || |), comments dropped."""
    code = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
    return [part.strip() for part in re.split(r"&&|\|\||;|\|", code) if part.strip()]


def _uv_requirements(words: list[str], needs: VerifierNeeds) -> None:
    if not words:
        return
    tool = words[0]
    rest = words[1:]
    if tool == "uv" and rest[:2] in (["tool", "run"], ["pip", "install"]):
        mode, rest = rest[1], rest[2:]
    elif tool == "uv" and rest and rest[0] in ("run", "add", "tool"):
        mode, rest = rest[0], rest[1:]
    elif tool == "uvx":
        mode = "run-tool"
    else:
        return
    positional: list[str] = []
    index = 0
    while index < len(rest):
        word = rest[index]
        name, eq, inline = word.partition("=")
        if word.startswith("-") and name in _UV_OPTS_WITH_VALUE:
            value = inline if eq else (rest[index + 1] if index + 1 < len(rest) else "")
            index += 1 if eq else 2
            if name in ("--with", "-w", "--from"):
                needs.requirements += [v for v in value.split(",") if v]
            elif name in ("--python", "-p"):
                needs.python_requests.append(value)
            continue
        if word.startswith("-"):
            index += 1
            continue
        positional.append(word)
        index += 1
        if mode in ("run", "run-tool"):
            break  # what follows is the command and its own arguments
    if mode in ("add", "install"):
        needs.requirements += positional
    elif mode == "run-tool" and positional and "--from" not in rest:
        needs.requirements.append(positional[0].replace("@", "==", 1))


def scan(scripts: dict[str, str]) -> VerifierNeeds:
    """What the scripts (name -> text) fetch at verify time, in the order they appear."""
    needs = VerifierNeeds()
    for name, text in scripts.items():
        for number, _, line in _logical_lines(text):
            for command in _commands(line):
                where = f"{name}:{number}"
                if m := _UV_INSTALLER.search(line):
                    needs.uv_version = m["version"] or needs.uv_version or DEFAULT_UV
                    break
                if m := _PIP_UV.match(command):
                    needs.uv_version = m["version"] or needs.uv_version or DEFAULT_UV
                    continue
                if m := _APT.match(command):
                    if m["verb"] == "install":
                        needs.apt_packages += [w for w in shlex.split(m["args"]) if not w.startswith("-")]
                    continue
                try:
                    words = shlex.split(command)
                except ValueError:
                    words = command.split()
                if words and words[0] in ("uv", "uvx"):
                    _uv_requirements(words, needs)
                    continue
                for pattern, why in _NETWORK:
                    if pattern.search(command):
                        needs.network_lines.append(f"{where}: `{command}` {why}")
                        break
    needs.requirements = list(dict.fromkeys(needs.requirements))
    # tools that only fetch are useless with no network, and pulling them in costs a minute per image
    needs.apt_packages = [p for p in dict.fromkeys(needs.apt_packages) if p not in FETCH_ONLY_PACKAGES]
    return needs


def rewrite(name: str, text: str, python: str | None) -> tuple[str, list[Substitution]]:
    """The script with its fetch lines turned into no-ops (uv, apt) and uv's python requests pointed at
    the image's interpreter; every change is returned so the case records it."""
    lines = text.splitlines()
    done: list[Substitution] = []
    for number, last, line in _logical_lines(text):
        new = line
        if _UV_INSTALLER.search(line) or any(_PIP_UV.match(c) for c in _commands(line)):
            new = f"true  # nightshift: uv is baked into the image at {TOOLCHAIN}/bin"
        elif any(_APT.match(c) for c in _commands(line)):
            new = "true  # nightshift: apt packages installed into the image at build time, fetch-only tools skipped"
        elif python and re.search(r"\buvx?\b", line):
            new = re.sub(r"(\s(?:-p|--python)[\s=])(\S+)", lambda m: m[1] + python, line)
        if new != line:
            lines[number - 1] = new
            for extra in range(number, last):  # continuation lines: kept as no-ops so numbers stay right
                lines[extra] = ":"
            done.append(Substitution(where=f"{name}:{number}", was=line.strip(), now=new.strip()))
    return "\n".join(lines) + ("\n" if text.endswith("\n") else ""), done


def wrapper(task_id: str, fmt: str, script: str, env: dict[str, str], toolchain: bool, python: str | None) -> str:
    """tests/test_harbor.sh: fresh reward folder, Harbor's environment, the script, then one result line
    (before the script's output, so nothing the output contains can be read as the result)."""
    exports = [f"export {k}={shlex.quote(v)}" for k, v in env.items() if re.fullmatch(r"[A-Za-z_]\w*", k)]
    if toolchain:
        exports += [
            f'export PATH="{TOOLCHAIN}/bin:$PATH" UV_OFFLINE=1 UV_NO_INDEX=1 UV_FIND_LINKS={TOOLCHAIN}/wheels',
            'export UV_PYTHON_DOWNLOADS=never UV_NO_CONFIG=1 UV_LINK_MODE=copy UV_CACHE_DIR="$root/uv-cache"',
            f"export UV_PYTHON={shlex.quote(python or 'python3')}",
            f"printf 'export PATH=\"{TOOLCHAIN}/bin:$PATH\"\\n' > \"$HOME/.local/bin/env\"",
        ]
    setup = "\n".join(exports)
    return f"""#!/usr/bin/env bash
# nightshift verifier of {fmt} task {task_id}: runs {script} the way Harbor does, offline.
# Every agent process is dead before this runs (each sandbox exec kills what it started), and the
# reward folder is made fresh here, so nothing written during the agent's phase counts as a reward.
root={LOGS_ROOT}
chmod -R u+rwx "$root" 2>/dev/null
rm -rf -- "$root"
if [ -e "$root" ] || [ -L "$root" ]; then
    echo 'nightshift-harbor: {{"error": "could not clear {LOGS_ROOT} before the tests"}}'
    exit 0
fi
mkdir -p "$root/verifier" "$root/home/.local/bin"
export HOME="$root/home" TEST_DIR={TESTS_IN_SANDBOX} T_BENCH_TEST_DIR={TESTS_IN_SANDBOX}
{setup}
cd /workspace
bash {TESTS_IN_SANDBOX}/{script} > "$root/test-output.txt" 2>&1 < /dev/null
code=$?
enc() {{ if [ -f "$1" ] && [ ! -L "$1" ]; then printf '"%s"' "$(head -c 65536 -- "$1" | base64 -w0)"; \\
         else printf null; fi; }}
printf 'nightshift-harbor: {{"format": "{fmt}", "exit": %d, "reward.txt": %s, "reward.json": %s}}\\n' \\
    "$code" "$(enc "$root/verifier/reward.txt")" "$(enc "$root/verifier/reward.json")"
cat -- "$root/test-output.txt"
exit 0
"""


def test_scripts(folder: Path, script: Path) -> dict[Path, str]:
    """Every shell script the verifier may run: the entry script and the .sh files under tests/."""
    tests = folder / "tests"
    candidates = [script, *sorted(tests.rglob("*.sh"))] if tests.is_dir() else [script]
    return {path: path.read_text(errors="replace") for path in dict.fromkeys(candidates) if path.is_file()}
