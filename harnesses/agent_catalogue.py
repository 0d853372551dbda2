"""The built-in entries of the catalogue of installed agents (harnesses/catalogue.py resolves them).

Each (but the two vendors' CLIs of harnesses/cli_recipes.py) is written in the YAML a team writes in its
experiment's `agents:` block (docs/HARNESSES.md), so adding one is a block of lines here plus its name in
nightshift.plugins.AGENTS. Every version is pinned; what each
needed, and why one is refused, was measured in this project's sandbox image (docs/HARNESSES.md has the table).
"""

from __future__ import annotations

from types import SimpleNamespace

import yaml

from nightshift.harnesses.cli_recipes import RECIPES
from nightshift.plugin import AgentEntry

# Debian's venv module, then a venv of the agent's own: its dependencies never meet the image's Python.
_VENV = ("apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null"
         " && rm -rf /var/lib/apt/lists/*")

BUILTIN_YAML = f"""
- name: mini-swe-agent
  protocol: chat
  versions: ["2.4.6"]
  install:
    - {_VENV}
    - python3 -m venv /opt/mini-swe-agent && /opt/mini-swe-agent/bin/pip install -q mini-swe-agent=={{version}}
    - ln -sf /opt/mini-swe-agent/bin/mini /usr/local/bin/mini
  # its text protocol (one mswea_bash_command block a reply), no confirmation, exit when it submits; its
  # own step and cost limits off: nightshift's are the ones that count
  run: >-
    mini -y --exit-immediately --agent-class default --model-class litellm_textbased
    -c mini_textbased.yaml -c environment.cwd=/workspace -c agent.step_limit=0 -c agent.cost_limit=0
    -m openai/{{model}} -t "$(cat {{instruction_file}})" -o /tmp/mini.traj.json
  env:
    MSWEA_CONFIGURED: "true"
    MSWEA_SILENT_STARTUP: "1"
    MSWEA_GLOBAL_CONFIG_DIR: /tmp/mini-config
    MSWEA_COST_TRACKING: ignore_errors
    LITELLM_LOCAL_MODEL_COST_MAP: "True"
  log: /tmp/mini.traj.json
  mapper: nightshift.harnesses.catalogue_logs:mini_swe_agent
  needs: >-
    python3-venv; MSWEA_CONFIGURED skips its first-run prompt, a config folder in /tmp, its own price lookup
    off (nightshift counts cost), litellm's price-list download off

- name: aider
  protocol: chat
  versions: ["0.86.2"]
  install:
    - {_VENV}
    - python3 -m venv /opt/aider && /opt/aider/bin/pip install -q aider-chat=={{version}}
    - ln -sf /opt/aider/bin/aider /usr/local/bin/aider
  # one message, then exit; every confirmation answered yes; no git, no lint/test loop, no shell commands
  # (with --yes-always aider refuses them anyway: they need an explicit yes), no repo map (no network for
  # tree-sitter grammars is needed either way)
  # --model-metadata-file: aider looks a model's limits up in litellm's price list, downloading it from
  # GitHub when its cache is empty (no network here: an error line and a 5 s wait); this file answers first
  run: >-
    mkdir -p /tmp/aider-home &&
    printf '{{"openai/%s": {{"max_input_tokens": 128000, "max_output_tokens": 8192, "litellm_provider": "openai",
    "mode": "chat", "input_cost_per_token": 0, "output_cost_per_token": 0}}}}' {{model}}
    > /tmp/aider-home/model.metadata.json &&
    aider --model openai/{{model}} --model-metadata-file /tmp/aider-home/model.metadata.json
    --edit-format {{edit_format}} --yes-always --no-git --no-auto-commits
    --no-auto-lint --no-auto-test --no-suggest-shell-commands --map-tokens 0 --no-check-update
    --no-show-release-notes --no-analytics --no-show-model-warnings --no-pretty --no-fancy-input
    --no-detect-urls --no-gitignore --chat-history-file /tmp/aider.chat.history.md
    --input-history-file /tmp/aider.input.history --message-file {{instruction_file}}
  settings:
    edit_format: whole
  env:
    HOME: /tmp/aider-home
    AIDER_ANALYTICS: "false"
    AIDER_CHECK_UPDATE: "false"
    LITELLM_LOCAL_MODEL_COST_MAP: "True"
  log: /tmp/aider.chat.history.md
  mapper: nightshift.harnesses.catalogue_logs:aider_chat_history
  needs: >-
    python3-venv; a writable HOME (its ~/.aider caches), analytics and the update check off, no git repository
    needed (--no-git), litellm's price-list download off

- name: gptme
  protocol: chat
  versions: ["0.35.1"]
  install:
    - {_VENV}
    - python3 -m venv /opt/gptme && /opt/gptme/bin/pip install -q gptme=={{version}}
    - ln -sf /opt/gptme/bin/gptme /usr/local/bin/gptme
  # non-interactive (no confirmations; it ends on its `complete` tool), function calling (`--tool-format
  # tool`) with only its shell and complete tools, a fixed conversation id so the log's path is known.
  # `local/` is its OpenAI-compatible provider: Chat Completions at OPENAI_BASE_URL (`openai/` would speak
  # Responses). The conversation's config is written first with a display name: without one gptme spends an
  # extra model call naming the conversation (for `openai/`, one to gpt-5-mini, which the proxy refuses)
  run: >-
    mkdir -p /tmp/gptme-logs/nightshift &&
    printf '[chat]\\nname = "nightshift trial"\\nworkspace = "%s"\\n' {{workspace}}
    > /tmp/gptme-logs/nightshift/config.toml &&
    exec gptme --non-interactive --model local/{{model}} --tool-format tool --tools shell,complete
    --workspace {{workspace}} --name nightshift "$(cat {{instruction_file}})" </dev/null
  env:
    HOME: /tmp/gptme-home
    GPTME_LOGS_HOME: /tmp/gptme-logs
    GPTME_TIKTOKEN_TIMEOUT: "0"
    NO_COLOR: "1"
  log: /tmp/gptme-logs/nightshift/conversation.jsonl
  mapper: nightshift.harnesses.catalogue_logs:gptme_conversation
  needs: >-
    python3-venv; a writable HOME and a logs folder in /tmp; tiktoken's download of its encoding off
    (GPTME_TIKTOKEN_TIMEOUT=0: a character-based estimate instead of a 5 s wait a call); the conversation's
    display name set (else it calls another model to name it); telemetry is an extra not installed

- name: openhands
  protocol: chat
  versions: ["1.11.0"]
  install:
    - {_VENV}
    - python3 -m venv /opt/openhands && /opt/openhands/bin/pip install -q openhands-ai=={{version}}
  run: >-
    /opt/openhands/bin/python -m openhands.core.main -t "$(cat {{instruction_file}})"
  env:
    RUNTIME: local
  refused: >-
    measured here (2026-12-03): on the sandbox image's Python 3.11 pip finds no version ("Requires-Python
    >=3.12" for every openhands-ai since 0.10 and every openhands CLI since 1.0); with Debian trixie's
    python3.13 added, openhands-ai 1.11.0 installs (pip 1,646 s, 1.4 GB) but is the web app and agent server,
    with no headless entry point (no openhands.core.main), and the headless CLI, openhands 1.16.0, needs
    Python 3.12.* exactly, which neither bookworm nor trixie ships; its tools (terminal, file editor, finish)
    are also none the simulator plays
"""

# Codex CLI and Claude Code are written in Python (harnesses/cli_recipes.py): Codex's config file is one string
CATALOGUE = SimpleNamespace(**{e.name: e for e in (*(AgentEntry.model_validate(raw)
                                                     for raw in yaml.safe_load(BUILTIN_YAML)), *RECIPES.values())})
"""The built-in entries by name: nightshift.plugins.AGENTS names them as `CATALOGUE.<name>`."""
