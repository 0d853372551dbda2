"""Import SWE-bench instances (JSONL) as nightshift case folders that run in the instance's own image.

Each line needs instance_id, repo, base_commit, patch, test_patch, FAIL_TO_PASS and PASS_TO_PASS
(lists, or JSON strings of lists as the published datasets have them). The repository lives in the
instance image at /testbed (image ``sweb.eval.x86_64.<id>``, built by the SWE-bench harness); a
case whose image is not present locally is refused by validation and by runs, never half-run.

Grading (tests/run_tests.sh, one run for every listed test): restore the test files the test
patch touches, apply the test patch, run pytest -rA on those files, report each test by name.
Patches apply with ``git apply``, falling back to ``patch --fuzz`` (tests/apply_patch.sh); the
oracle applies the gold patch the same way, and so can a predictions file's model_patch.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

from nightshift.errors import SuiteError

REQUIRED = ("instance_id", "repo", "base_commit", "patch", "test_patch", "FAIL_TO_PASS", "PASS_TO_PASS")
# their harness reads Django's and SymPy's own runners' logs; only pytest logs are read here
UNSUPPORTED_REPOS = {"django/django": "Django's runtests.py", "sympy/sympy": "SymPy's bin/test"}
WORKDIR = "/testbed"

APPLY_PATCH = """#!/usr/bin/env bash
# apply_patch.sh PATCH [DIR]: git apply, then git apply --reject, then patch --fuzz (as the SWE-bench harness)
patch_file=$1
cd "${2:-/testbed}" || exit 2
git apply --verbose "$patch_file" && exit 0
git apply --verbose --reject "$patch_file" && exit 0
patch --batch --fuzz=5 -p1 -i "$patch_file" && exit 0
echo "apply_patch: $patch_file does not apply" >&2
exit 1
"""

_RUN_TESTS = """#!/usr/bin/env bash
# SWE-bench evaluation of {instance_id}: test patch on top of the agent's work, then the tests it touches.
cd {workdir} || exit 2
if [ -f /opt/miniconda3/bin/activate ]; then source /opt/miniconda3/bin/activate testbed; fi
git checkout -q {base_commit} -- {test_files} 2>/dev/null
bash /grader/tests/apply_patch.sh /grader/tests/test.patch {workdir} || exit 1
python -m pytest -rA {test_files}
"""


def image_name(instance_id: str) -> str:
    """The local image name the SWE-bench harness gives an instance (``__`` spelled ``_1776_``)."""
    return f"sweb.eval.x86_64.{instance_id.replace('__', '_1776_')}:latest".lower()


def patched_files(diff: str) -> list[str]:
    """Paths a unified diff changes (its ``diff --git a/X b/X`` headers), in order."""
    return list(dict.fromkeys(re.findall(r"^diff --git a/(\S+) b/", diff, flags=re.MULTILINE)))


def apply_script(patch: str, workdir: str = WORKDIR) -> str:
    """A self-contained bash script that applies ``patch`` in ``workdir`` with the fallbacks above."""
    marker = "NIGHTSHIFT_PATCH_EOF"
    if marker in patch:
        raise SuiteError("the patch contains the heredoc marker NIGHTSHIFT_PATCH_EOF; cannot embed it")
    body = (APPLY_PATCH.split("\n", 2)[2].replace("patch_file=$1", "patch_file=$(mktemp)")
            .replace('"${2:-/testbed}"', shlex.quote(workdir)))
    write = f"cat > \"$patch_file\" <<'{marker}'\n{patch.rstrip()}\n{marker}\n"
    first, rest = body.split("\n", 1)
    return f"#!/usr/bin/env bash\n{first}\n{write}{rest}"


def _names(value: object, field: str, where: str) -> list[str]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise SuiteError(f"{where}: field '{field}' is a string but not a JSON list: {exc}") from exc
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SuiteError(f"{where}: field '{field}' must be a list of test names")
    return value


def read_instances(path: Path) -> list[dict]:
    instances = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            inst = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SuiteError(f"{where}: not a JSON object: {exc}") from exc
        missing = [k for k in REQUIRED if k not in inst]
        if missing:
            raise SuiteError(f"{where}: fields {missing} are missing; every SWE-bench instance needs {list(REQUIRED)}")
        inst["FAIL_TO_PASS"] = _names(inst["FAIL_TO_PASS"], "FAIL_TO_PASS", where)
        inst["PASS_TO_PASS"] = _names(inst["PASS_TO_PASS"], "PASS_TO_PASS", where)
        instances.append(inst)
    return instances


def write_case(inst: dict, out: Path) -> Path:
    case_id = re.sub(r"[^A-Za-z0-9_.-]+", "-", inst["instance_id"])
    folder = out / case_id
    shutil.rmtree(folder, ignore_errors=True)
    for sub in ("workspace", "tests", "solution"):
        (folder / sub).mkdir(parents=True)
    test_files = patched_files(inst["test_patch"])
    (folder / "tests" / "test.patch").write_text(inst["test_patch"])
    (folder / "tests" / "apply_patch.sh").write_text(APPLY_PATCH)
    (folder / "tests" / "run_tests.sh").write_text(_RUN_TESTS.format(
        instance_id=inst["instance_id"], workdir=WORKDIR, base_commit=shlex.quote(inst["base_commit"]),
        test_files=" ".join(shlex.quote(f) for f in test_files)))
    (folder / "solution" / "solve.sh").write_text(apply_script(inst["patch"]))
    (folder / "instruction.md").write_text(
        f"# {inst['repo']}: resolve this issue\n\n{inst.get('problem_statement', '').strip()}\n\n"
        f"The repository is checked out at `{WORKDIR}` (commit {inst['base_commit'][:12]}). Change the "
        f"source so the issue is resolved; do not edit the tests.\n")
    quoted = json.dumps  # a JSON list of strings is a valid TOML array
    image = image_name(inst["instance_id"])
    (folder / "case.toml").write_text(
        f'id = "{case_id}"\ndomain = "{inst["repo"]}"\nsplit = "public"\nimage = "{image}"\n\n'
        f'[tests]\nrunner = "run_tests.sh"\nlog_format = "pytest"\nfail_to_pass = {quoted(inst["FAIL_TO_PASS"])}\n'
        f'pass_to_pass = {quoted(inst["PASS_TO_PASS"])}\n\n[limits]\nmax_steps = 60\nwall_clock_s = 1800\n'
        f'test_timeout_s = 900\n\n[source]\nformat = "swebench"\ninstance_id = "{inst["instance_id"]}"\n'
        f'base_commit = "{inst["base_commit"]}"\nversion = "{inst.get("version", "")}"\n')
    return folder


def import_swebench(path: Path, out: Path, name: str = "swebench") -> Path:
    """Every instance of a JSONL file as the suite ``out``; unsupported repos are listed, not written."""
    instances = read_instances(path)
    if not instances:
        raise SuiteError(f"{path}: no instances in this file")
    kept = [i for i in instances if i["repo"] not in UNSUPPORTED_REPOS]
    skipped = [f"{i['instance_id']} ({UNSUPPORTED_REPOS[i['repo']]} logs are not read yet)"
               for i in instances if i["repo"] in UNSUPPORTED_REPOS]
    if not kept:
        raise SuiteError(f"{path}: every instance is from a repository whose test logs are not read yet: {skipped}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "suite.toml").write_text(f'name = "{name}"\nversion = "1"\ndescription = "SWE-bench instances from '
                                    f'{Path(path).name}"\nskipped = {json.dumps(skipped)}\n')
    for inst in kept:
        write_case(inst, out)
    return out
