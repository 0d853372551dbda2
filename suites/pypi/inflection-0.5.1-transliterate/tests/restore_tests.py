"""restore_tests.py PRISTINE WORKSPACE: put the shipped tests back and discard what changes how tests run.

PRISTINE/paths.txt lists the shipped paths (relative to the project root, e.g. ``tests`` or ``pkg/tests``).

Copied into every repository task and run by its run_tests.sh before pytest, with the venv's python -I.
Policy (docs/SUITES.md): each pristine test tree replaces the workspace's copy whole (edits and deletions
are undone, added test files vanish); any conftest.py, sitecustomize.py, usercustomize.py or .pth file in
the workspace that is not in the pristine set is deleted, because each one runs code before or around the
tests; pytest's configuration comes from the case (-c), so an added pytest.ini, tox.ini or setup.cfg is
never read. Every discarded file is named on stderr, so it shows in the grading log.
"""

import os
import shutil
import sys

HOOKS = ("conftest.py", "sitecustomize.py", "usercustomize.py")


def main(pristine: str, workspace: str) -> int:
    kept: set[str] = set()
    with open(os.path.join(pristine, "paths.txt")) as listing:
        names = [line.strip() for line in listing if line.strip()]
    for name in names:
        src, dst = os.path.join(pristine, name), os.path.join(workspace, name)
        if os.path.isdir(dst) and not os.path.islink(dst):
            shutil.rmtree(dst)
        elif os.path.lexists(dst):
            os.remove(dst)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)
        for root, _dirs, files in os.walk(dst) if os.path.isdir(dst) else [(workspace, [], [name])]:
            kept.update(os.path.join(root, f) for f in files)
    for root, dirs, files in os.walk(workspace):
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__")]
        for name in files:
            path = os.path.join(root, name)
            if (name in HOOKS or name.endswith(".pth")) and path not in kept:
                os.remove(path)
                print(f"restore_tests: discarded {os.path.relpath(path, workspace)} (not in the shipped tests)",
                      file=sys.stderr)
    for root, dirs, _files in os.walk(workspace):
        if ".git" in dirs:
            shutil.rmtree(os.path.join(root, ".git"))
            print(f"restore_tests: discarded {os.path.relpath(os.path.join(root, '.git'), workspace)}", file=sys.stderr)
            dirs.remove(".git")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
