"""The catalogue entries of two vendors' agent CLIs from PyPI (docs/HARNESSES.md "Codex CLI and Claude Code"):
what to install, the non-interactive run line, the environment, the protocol, where the log is and its mapper.

They are the one source of these recipes: harnesses/agent_catalogue.py lists them beside the YAML entries, and
experiments/clis.yaml and experiments/agents.yaml name them as `kind: installed`. Written in Python rather than
YAML so Codex's config file stays one verbatim string; the install lines are the ones the content-keyed
derived images were first built from, byte for byte, so those images are reused.

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

from nightshift.plugin import AgentEntry

APT_VENV = ("apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null "
            "&& rm -rf /var/lib/apt/lists/*")
PACKAGES = {"codex": "openai-codex-cli-bin", "claude-code": "claude-agent-sdk"}  # the wheel carrying the binary

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

CODEX = AgentEntry(
    name="codex", protocol="responses", versions=[CODEX_VERSION],
    install=[
        APT_VENV,
        # the venv only carries the wheel's binary: pip and setuptools leave it (their vendored packages, e.g.
        # more_itertools, would be a readable copy beside a repository task of that package)
        "python3 -m venv /opt/codex && /opt/codex/bin/pip install -q --no-deps openai-codex-cli-bin=={version} "
        "&& /opt/codex/bin/python -m pip uninstall -y -q setuptools pip",
        "ln -sf \"$(find /opt/codex -path '*/codex_cli_bin/bin/codex' -type f)\" /usr/local/bin/codex "
        "&& codex --version",
        f"cat > /opt/codex/config.toml <<'TOML'\n{CODEX_CONFIG}TOML",
    ],
    run=('mkdir -p "$CODEX_HOME" && cp /opt/codex/config.toml "$CODEX_HOME/config.toml" && '
         "exec codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -C {workspace} "
         "-m {model} -c 'model_providers.nightshift.base_url=\"{base_url}\"' \"$(cat {instruction_file})\" </dev/null"),
    env={"CODEX_HOME": "/tmp/codex-home", "NO_COLOR": "1"},
    log="/tmp/codex-home/sessions/", mapper="nightshift.harnesses.agent_logs:codex_log",
    needs="python3-venv; CODEX_HOME in /tmp with a config.toml: a model provider at the proxy (Responses wire "
          "API, key from OPENAI_API_KEY, no login), analytics, update check, web search, sub-agents, apps and "
          "plugins off; its own sandbox off (it would need user namespaces inside nightshift's)",
)

CLAUDE_CODE_SDK_VERSION = "0.2.184"  # bundles Claude Code 2.1.327
CLAUDE_CODE = AgentEntry(
    name="claude-code", protocol="anthropic", versions=[CLAUDE_CODE_SDK_VERSION],
    install=[
        APT_VENV,
        # --no-deps: only the bundled CLI binary is run, never the Python SDK around it
        "python3 -m venv /opt/claude-code && /opt/claude-code/bin/pip install -q --no-deps "
        "claude-agent-sdk=={version} && /opt/claude-code/bin/python -m pip uninstall -y -q setuptools pip",
        "ln -sf \"$(find /opt/claude-code -path '*/claude_agent_sdk/_bundled/claude' -type f)\" /usr/local/bin/claude",
    ],
    run=("ANTHROPIC_DEFAULT_HAIKU_MODEL={model} ANTHROPIC_SMALL_FAST_MODEL={model} exec claude -p --model {model} "
         "--output-format stream-json --verbose --dangerously-skip-permissions --tools Bash,Read,Edit,Write,Glob,Grep "
         "-- \"$(cat {instruction_file})\" </dev/null"),
    env={"CLAUDE_CONFIG_DIR": "/tmp/claude-config", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
         "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "NO_COLOR": "1"},
    log="/tmp/claude-config/projects/", mapper="nightshift.harnesses.agent_logs:claude_code_log",
    needs="python3-venv; its config dir in /tmp; telemetry, error reports, auto-update and non-essential "
          "traffic off; print mode with permissions skipped (refused as root: trials run unprivileged); its "
          "small-model calls sent to the variant's model; local tools only",
)

RECIPES = {entry.name: entry for entry in (CODEX, CLAUDE_CODE)}
