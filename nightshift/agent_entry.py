"""One entry of the catalogue of installed agents (docs/HARNESSES.md "The catalogue"): the schema only.

The built-in entries are in nightshift.harnesses.catalogue; a team adds or overrides one in its experiment's
``agents:`` block, in exactly this shape, or registers one as a ``nightshift.agents`` entry point.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

PLACEHOLDERS = ("model", "instruction_file", "base_url", "workspace")  # filled by the command harness


class AgentEntry(BaseModel):
    """An agent CLI nightshift knows how to install, run headless and read the log of."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="What `harness.name` calls it.")
    protocol: Literal["chat", "responses", "anthropic"] = Field(
        description="The wire protocol it speaks to the proxy: Chat Completions, OpenAI Responses, Anthropic "
        "Messages.")
    versions: list[str] = Field(min_length=1, description="The versions this entry pins; `harness.version` "
                                "must be one of them. `{version}` in install is filled with it.")
    install: list[str] = Field(min_length=1, description="Shell lines run once as root with network into a "
                               "derived image (content-keyed); pin every package.")
    run: str = Field(description="Its non-interactive command line; {model}, {instruction_file}, {base_url}, "
                     "{workspace}, {version} and {<setting>} are filled in.")
    env: dict[str, str] = Field({}, description="What it needs in a sandbox: home/config folders, telemetry "
                                "and auto-update off, no login prompt.")
    settings: dict[str, str] = Field({}, description="Defaults of the {<setting>} placeholders of run; a "
                                     "variant's harness.settings overrides them.")
    log: str | None = Field(None, description="Path of its own log inside the sandbox, collected when it ends; "
                            "one ending in '/' is a folder: every *.jsonl below it, in path order, one after "
                            "the other (Codex's session files, Claude Code's transcripts).")
    mapper: str | None = Field(None, description="'module:function' turning that log's text into trajectory "
                               "events (nightshift.harnesses.catalogue_logs has the built-in ones).")
    needs: str = Field("", description="What it needed that a sandbox lacks, in words (docs and `nightshift "
                       "agents`).")
    refused: str | None = Field(None, description="Why it cannot be installed or run here, as measured; a "
                                "variant naming it is refused before any trial.")

    @model_validator(mode="after")
    def _log_with_mapper(self) -> AgentEntry:
        if self.mapper and not self.log:
            raise ValueError("mapper needs log: the path of the agent's own log inside the sandbox")
        clash = sorted(set(self.settings) & {*PLACEHOLDERS, "version"})
        if clash:
            raise ValueError(f"settings {clash} would shadow nightshift's own placeholders; rename them")
        return self
