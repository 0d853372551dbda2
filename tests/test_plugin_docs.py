"""Every docs/plugins page's worked example runs as a new user would run it, knowing only the page.

From the page's "## Worked example" section: each code block whose first line is `# <path>` (the plugin's
```python module, the experiment's YAML, an importer's source file) is written to that path in a fresh project
folder, then the section's ```bash commands run there, one by one, with the installed `nightshift` and the
session's Prefect server. What the page says happens is then checked on what the commands left behind: the
harness's trial resolved, the metric's `score.<name>` column, the imported suite validated, the sandbox backend
validated a suite and ran a night. Each night is one case and one seed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.conftest import REPO
from tests.sandbox_support import make_backend

PAGES = REPO / "docs" / "plugins"
VENV_BIN = Path(sys.executable).parent
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
FILE_HEADER = re.compile(r"# ([\w./-]+\.(?:py|yaml|toml))\n")
EXTENSION_PAGES = ["harness.md", "metric.md", "importer.md", "sandbox.md"]


@dataclass(frozen=True)
class Example:
    page: str
    files: dict[str, str]
    commands: list[str]


def worked_example(page: str) -> Example:
    """The files and commands of the page's "## Worked example" section (to the next section or the end)."""
    text = (PAGES / page).read_text()
    start = text.index("\n## Worked example")
    end = text.find("\n## ", start + 1)
    files, commands = {}, []
    for language, body in BLOCK.findall(text[start:end if end != -1 else None]):
        header = FILE_HEADER.match(body)
        if header:
            files[header.group(1)] = body
        elif language == "bash":
            lines = [line.strip() for line in body.splitlines()]
            commands += [line for line in lines if line and not line.startswith("#")]
    return Example(page, files, commands)


@dataclass
class Ran:
    project: Path
    outputs: list[str]  # stdout + stderr of each command, in order, whitespace collapsed (rich wraps lines)

    def run_folder(self, experiment: str) -> Path:
        found = sorted((self.project / "runs").glob(f"{experiment}-*/results.parquet"))
        assert len(found) == 1, f"expected one run of {experiment} under {self.project / 'runs'}, found {found}"
        return found[0].parent

    def rows(self, experiment: str) -> list[dict]:
        return pq.read_table(self.run_folder(experiment) / "results.parquet").to_pylist()

    def manifest(self, experiment: str) -> dict:
        return json.loads((self.run_folder(experiment) / "manifest.json").read_text())


def run_example(example: Example, project: Path, prefect_url: str | None = None) -> Ran:
    """Write the example's files into a new project folder and run its commands there, as a user's shell would."""
    project.mkdir()
    for rel, text in example.files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    env = {k: v for k, v in os.environ.items() if k not in ("NIGHTSHIFT_HOME", "PYTHONPATH")}
    env["PATH"] = f"{VENV_BIN}:{env['PATH']}"
    if prefect_url:
        env["PREFECT_API_URL"] = prefect_url
    outputs = []
    for command in example.commands:
        done = subprocess.run(command, shell=True, cwd=project, env=env, capture_output=True, text=True,
                              timeout=600)
        output = done.stdout + done.stderr
        assert done.returncode == 0, (f"docs/plugins/{example.page}: `{command}` exited {done.returncode}:\n"
                                      f"{output[-4000:]}")
        outputs.append(" ".join(output.split()))
    return Ran(project, outputs)


@pytest.fixture(scope="module", autouse=True)
def sandboxes_run_here() -> None:
    """The pages' commands run bubblewrap sandboxes (the sandbox page's backend, bubblewrap jails of its own)."""
    make_backend("bubblewrap")


@pytest.mark.parametrize("page", EXTENSION_PAGES)
def test_each_page_has_one_worked_example_and_the_commands_to_use_it(page: str) -> None:
    text = (PAGES / page).read_text()
    assert len(re.findall(r"^```python\n", text, re.M)) == 1, f"{page}: one ```python block, the worked example"
    example = worked_example(page)
    modules = [path for path in example.files if path.endswith(".py")]
    assert len(modules) == 1 and "/" not in modules[0], f"{page}: the example is one module of the project folder"
    assert any(c.startswith("nightshift ") for c in example.commands), f"{page}: no nightshift command to run it"
    assert (PAGES / "README.md").read_text().count(f"]({page})") == 1, f"docs/plugins/README.md does not link {page}"


def test_the_harness_page_runs_its_agent_in_a_night(tmp_path: Path, prefect_server: str) -> None:
    example = worked_example("harness.md")
    assert set(example.files) == {"my_agent.py", "experiments/my-agent.yaml"}
    ran = run_example(example, tmp_path / "project", prefect_server)
    [row] = ran.rows("my-agent")
    assert (row["case_id"], row["variant"], row["status"]) == ("fix-median", "mine", "resolved"), row["reason"]
    assert row["model_calls"] >= 2 and row["steps"] >= 2
    pin = ran.manifest("my-agent")["harnesses"]["mine"]
    assert (pin["kind"], pin["entrypoint"], pin["source"]) == ("python", "my_agent:MyAgent", "module")
    assert pin["version"].startswith("sha256:") and pin["settings"]["max_turns"] == 12

    from nightshift.viewer.steps import read_steps  # the trajectory has the shape the viewer draws

    steps = read_steps(ran.run_folder("my-agent") / "trajectories" / f"{row['trial_id']}.jsonl")
    assert steps[0]["prompt"] and steps[-1]["end"] == "submit"
    bash = [call for step in steps for call in step["calls"] if call["name"] == "bash"]
    assert bash and all(call["output"] and call["output"].startswith("exit code: ") for call in bash)


def test_the_metric_page_scores_a_night(tmp_path: Path, prefect_server: str) -> None:
    example = worked_example("metric.md")
    assert set(example.files) == {"my_metrics.py", "experiments/lines.yaml"}
    ran = run_example(example, tmp_path / "project", prefect_server)
    [row] = ran.rows("lines")
    assert row["status"] == "resolved" and row["score.lines_changed"] > 0
    schema = pq.read_schema(ran.run_folder("lines") / "results.parquet")
    assert schema.field("score.lines_changed").metadata == {b"unit": b"lines", b"higher_is_better": b"false"}
    trial = json.loads((ran.run_folder("lines") / "results" / f"{row['trial_id']}.json").read_text())
    assert trial["score_messages"]["lines_changed"] == "1 files: stats/median.py"
    [pin] = [m for m in ran.manifest("lines")["metrics"]["starter"] if m["name"] == "lines_changed"]
    assert (pin["use"], pin["source"]) == ("my_metrics:LinesChanged", "module") and pin["version"].startswith("sha256:")
    assert "lines changed (lines)" in ran.outputs[-1]  # the "Named metrics by arm" table


def test_the_importer_page_writes_a_suite_that_validates(tmp_path: Path) -> None:
    example = worked_example("importer.md")
    assert set(example.files) == {"my_importer.py", "tasks.toml"}
    ran = run_example(example, tmp_path / "project")
    imported, validated = ran.outputs
    assert "refused No Check: missing check" in imported and "imported 2 tasks, refused 1" in imported
    assert "2/2 cases valid" in validated
    suite = ran.project / "suites" / "shell"
    assert sorted(p.name for p in suite.iterdir() if (p / "case.toml").is_file()) == ["count-lines", "upper-names"]
    assert '[[refused]]\ntask = "No Check"' in (suite / "suite.toml").read_text()
    assert (suite / "validation.json").is_file()


def test_the_sandbox_page_backend_validates_a_suite_and_runs_a_night(tmp_path: Path, prefect_server: str) -> None:
    example = worked_example("sandbox.md")
    assert set(example.files) == {"my_sandbox.py", "experiments/jail.yaml"}
    ran = run_example(example, tmp_path / "project", prefect_server)
    validations = [out for command, out in zip(example.commands, ran.outputs, strict=True)
                   if command.startswith("nightshift validate-suite")]
    assert len(validations) == 2
    for output in validations:
        assert "on my_sandbox:JailBackend (host)" in output and "1/1 cases valid" in output
    [row] = ran.rows("jail")
    assert (row["case_id"], row["status"]) == ("fix-median", "resolved"), row["reason"]
    manifest = ran.manifest("jail")
    assert manifest["sandbox_backend"] == "my_sandbox:JailBackend"
    assert manifest["sandbox_identity"].startswith("jail:sha256:")
    assert (ran.run_folder("jail") / "diffs" / f"{row['trial_id']}.diff").read_text()  # diff ran in a jail
    run_id = ran.run_folder("jail").name
    left = [p for p in Path("/tmp/jail-sandboxes").iterdir()
            if (p / "owner.json").is_file() and json.loads((p / "owner.json").read_text())["run_id"] == run_id]
    assert not left, f"sandboxes of the night left behind: {left}"
