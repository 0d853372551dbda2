"""Recipes for two vendors' agent CLIs from PyPI, as `kind: command` harnesses (docs/HARNESSES.md "Codex CLI
and Claude Code"): what to install, the non-interactive run line, the environment, the protocol, the log.

Each recipe is self-contained data, so a catalogue can list it as it is; experiments/clis.yaml spells the same
blocks out for `nightshift run` (tests/test_harness_clis.py checks the two agree).

* Codex CLI: OpenAI's own wheel `openai-codex-cli-bin` (author OpenAI, project github.com/openai/codex, the
  runtime the `openai-codex` Python SDK pins) carries the Rust binary. A custom model provider points at the
  trial's proxy with the Responses wire API and reads the key from OPENAI_API_KEY (no login); analytics, update
  checks, web search, sub-agents, goals, apps and plugins are off; its own sandbox is off
  (`--dangerously-bypass-approvals-and-sandbox`): it would need user namespaces inside nightshift's sandbox,
  which is the boundary anyway. CODEX_HOME lives in the sandbox's /tmp.
* Claude Code: the `claude-agent-sdk` wheel (Anthropic's) bundles the CLI binary; it runs in print mode with
  permissions skipped (the sandbox is the boundary; it refuses that as root, and trials run unprivileged),
  telemetry, error reports, auto-update and non-essential traffic off, its config dir in /tmp, its small-model
  calls sent to the variant's model, and only its local tools (no WebSearch/WebFetch: no network anyway).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

APT_VENV = ("apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null "
            "&& rm -rf /var/lib/apt/lists/*")


@dataclass(frozen=True)
class CliRecipe:
    name: str
    package: str  # the PyPI wheel that carries the binary, pinned
    version: str
    protocol: str  # chat | responses | anthropic: what the CLI speaks to the proxy
    install: tuple[str, ...]
    run: str
    env: dict[str, str] = field(default_factory=dict)
    log: dict[str, str] = field(default_factory=dict)  # AgentLog: format and folder

    def harness(self, max_steps: int = 30) -> dict[str, Any]:
        """The `harness:` block of a variant (kind: command)."""
        return {"kind": "command", "max_steps": max_steps, "install": list(self.install), "run": self.run,
                "env": dict(self.env), "log": dict(self.log)}


CODEX_VERSION = "0.163.0"
CODEX_CONFIG = """\
model_provider = "nightshift"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
web_search = "disabled"
[model_providers.nightshift]
name = "nightshift proxy"
base_url = "http://127.0.0.1:4141/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
[analytics]
enabled = false
[features]
multi_agent = false
goals = false
apps = false
plugins = false
shell_snapshot = false
"""

CODEX = CliRecipe(
    name="codex", package="openai-codex-cli-bin", version=CODEX_VERSION, protocol="responses",
    install=(
        APT_VENV,
        f"python3 -m venv /opt/codex && /opt/codex/bin/pip install -q --no-deps openai-codex-cli-bin=={CODEX_VERSION}",
        "ln -sf \"$(find /opt/codex -path '*/codex_cli_bin/bin/codex' -type f)\" /usr/local/bin/codex "
        "&& codex --version",
        f"cat > /opt/codex/config.toml <<'TOML'\n{CODEX_CONFIG}TOML",
    ),
    run=('mkdir -p "$CODEX_HOME" && cp /opt/codex/config.toml "$CODEX_HOME/config.toml" && '
         "exec codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -C {workspace} "
         "-m {model} -c 'model_providers.nightshift.base_url=\"{base_url}\"' \"$(cat {instruction_file})\" </dev/null"),
    env={"CODEX_HOME": "/tmp/codex-home", "NO_COLOR": "1"},
    log={"format": "codex", "path": "/tmp/codex-home/sessions"},
)

CLAUDE_CODE_SDK_VERSION = "0.2.184"  # bundles Claude Code 2.1.327
CLAUDE_CODE = CliRecipe(
    name="claude-code", package="claude-agent-sdk", version=CLAUDE_CODE_SDK_VERSION, protocol="anthropic",
    install=(
        APT_VENV,
        # --no-deps: only the bundled CLI binary is run, never the Python SDK around it
        f"python3 -m venv /opt/claude-code && /opt/claude-code/bin/pip install -q --no-deps "
        f"claude-agent-sdk=={CLAUDE_CODE_SDK_VERSION}",
        "ln -sf \"$(find /opt/claude-code -path '*/claude_agent_sdk/_bundled/claude' -type f)\" /usr/local/bin/claude",
    ),
    run=("ANTHROPIC_DEFAULT_HAIKU_MODEL={model} ANTHROPIC_SMALL_FAST_MODEL={model} exec claude -p --model {model} "
         "--output-format stream-json --verbose --dangerously-skip-permissions --tools Bash,Read,Edit,Write,Glob,Grep "
         "-- \"$(cat {instruction_file})\" </dev/null"),
    env={"CLAUDE_CONFIG_DIR": "/tmp/claude-config", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
         "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "NO_COLOR": "1"},
    log={"format": "claude-code", "path": "/tmp/claude-config/projects"},
)

RECIPES = {recipe.name: recipe for recipe in (CODEX, CLAUDE_CODE)}
