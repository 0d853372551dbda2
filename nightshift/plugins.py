"""The extension points of nightshift, each a Registry over its own entry-point group.

A third-party package adds one by declaring an entry point, e.g. in its pyproject.toml:

    [project.entry-points."nightshift.metrics"]
    fast_pass = "my_team.metrics:FastPass"

and `nightshift plugins` lists everything installed, with versions.
"""

from __future__ import annotations

from nightshift.registry import Registry

HARNESSES = Registry("harnesses", {"reference": "nightshift.harnesses.tool_agent:ToolAgent"})
METRICS = Registry("metrics", {
    "resolved": "nightshift.graders.builtin_metrics:Resolved",
    "progress": "nightshift.graders.builtin_metrics:Progress",
    "time_to_pass": "nightshift.graders.builtin_metrics:TimeToPass",
    "files_outside_allowed": "nightshift.graders.builtin_metrics:FilesOutsideAllowed",
    "speedup": "nightshift.graders.builtin_metrics:Speedup",
})
IMPORTERS = Registry("importers", {
    "humaneval": "nightshift.suites.importers:HUMANEVAL",
    "harbor": "nightshift.suites.importers:HARBOR",
    "swebench": "nightshift.suites.importers:SWEBENCH",
    "pypi": "nightshift.suites.importers:PYPI",
})
SANDBOXES = Registry("sandboxes", {
    "bubblewrap": "nightshift.sandbox.bubblewrap:BubblewrapBackend",
    "docker": "nightshift.sandbox.docker_backend:DockerBackend",
})

SCANNERS = Registry("scanners", {  # every run scans with these unless its experiment names others (docs/SCANNERS.md)
    "test_edits": "nightshift.graders.builtin_scanners:TestEdits",
    "grader_paths": "nightshift.graders.builtin_scanners:GraderPaths",
    "answer_search": "nightshift.graders.builtin_scanners:AnswerSearch",
    "answer_in_agent_install": "nightshift.graders.builtin_scanners:AnswerInAgentInstall",
    "runner_config": "nightshift.graders.builtin_scanners:RunnerConfig",
    "hardcoded_outputs": "nightshift.graders.hardcoded_outputs:HardcodedOutputs",
    "repeated_command": "nightshift.graders.builtin_scanners:RepeatedCommand",
    "no_change": "nightshift.graders.builtin_scanners:NoChange",
    "limit_refusal": "nightshift.graders.builtin_scanners:LimitRefusal",
    "judge": "nightshift.graders.judge:Judge",  # opt-in: asks a model (OPT_IN_SCANNERS)
})
OPT_IN_SCANNERS = ("judge",)  # registered, but never among the defaults: named in an experiment's scanners only

AGENTS = Registry("agents", {  # the catalogue of installed agents, `harness: {kind: installed}` (docs/HARNESSES.md)
    "mini-swe-agent": "nightshift.harnesses.agent_catalogue:CATALOGUE.mini-swe-agent",
    "aider": "nightshift.harnesses.agent_catalogue:CATALOGUE.aider",
    "codex": "nightshift.harnesses.agent_catalogue:CATALOGUE.codex",
    "claude-code": "nightshift.harnesses.agent_catalogue:CATALOGUE.claude-code",
    "gptme": "nightshift.harnesses.agent_catalogue:CATALOGUE.gptme",
    "openhands": "nightshift.harnesses.agent_catalogue:CATALOGUE.openhands",
})

ALL = {"harnesses": HARNESSES, "agents": AGENTS, "metrics": METRICS, "importers": IMPORTERS, "sandboxes": SANDBOXES,
       "scanners": SCANNERS}
