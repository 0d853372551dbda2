"""guarded_pytest.py PYTEST_ARGS...: pytest whose verdicts the code under test cannot rewrite from inside.

Copied into every repository task beside restore_tests.py and run by its run_tests.sh with the venv's python
-I -B; the junit report's path arrives on file descriptor 3 (never in the arguments or the environment, which
the code under test can read). The project's code runs in this process, so it could patch pytest's reports,
add a hook, or rewrite the report file. Policy (docs/SUITES.md): the report is void (exit 17, no report, so
the grader fails every test) when

1. a function or class attribute of pytest's or pluggy's modules, as imported before any project code, is
   another object at a check (a patched TestReport, runner or junit writer);
2. a hook implementation or plugin registered after start-up (once conftests, and so project code, can
   load) comes from a file under the rootdir other
   than a conftest.py or a file of the test trees on the command line (restore_tests.py has put those back
   as shipped and deleted every conftest.py the case does not ship);
3. the junit report pytest wrote disagrees, test by test, with the outcomes recorded here as each report
   was made (a report swapped or edited on disk).

The report reaches the grader's path only after the checks (an ``os._exit`` from test code leaves none; a
file already at that path voids the run) and this process then ends at once, so no ``atexit`` handler of the
code under test runs after it. Every reason is printed on stderr, so it shows in the grading log. In-process
code can still do anything this process can (walk the stack to the path, fork a writer): the ``runner_tamper``
scanner flags source changes that reach for pytest's internals, the stack, ``atexit`` or ``os._exit``.
"""

import importlib
import os
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET

# pytest before any project code: what is snapshotted is pytest's own
import _pytest.config
import _pytest.junitxml
import pytest

WATCHED = ("_pytest", "pluggy")
CHECKED_HOOKS = ("pytest_runtest_makereport", "pytest_runtest_logreport", "pytest_report_teststatus",
                 "pytest_runtest_protocol", "pytest_runtest_call", "pytest_pyfunc_call", "pytest_sessionfinish")
VOID = 17  # not one of pytest's own exit codes (0-5)


def _watched_modules() -> dict:
    return {name: module for name, module in list(sys.modules.items())
            if module is not None and (name == "pytest" or name.split(".")[0] in WATCHED)}


def snapshot(modules: dict) -> dict:
    """(module, attribute[, class attribute]) -> the object, for functions and classes of ``modules``."""
    seen: dict[tuple[str, ...], object] = {}
    for name, module in modules.items():
        for attr, value in list(vars(module).items()):
            if callable(value):
                seen[(name, attr)] = value
            if isinstance(value, type) and value.__module__ == name:
                for inner, member in list(vars(value).items()):
                    if callable(member) or isinstance(member, (property, classmethod, staticmethod)):
                        seen[(name, attr, inner)] = member
    return seen


def _own_files(modules: dict) -> tuple[str, ...]:
    return tuple(os.path.dirname(os.path.realpath(m.__file__)) + os.sep for m in modules.values()
                 if getattr(m, "__file__", None) and m.__name__ in ("pytest", *WATCHED))


def changed(before: dict, modules: dict) -> list[str]:
    """What was rebound to code outside pytest and pluggy (pytest's own legacypath plugin rebinds a Config
    method at start-up: that is no tampering)."""
    now = snapshot({name: modules[name] for name in {key[0] for key in before}})
    own = _own_files(modules)
    found = []
    for key, value in before.items():
        new = now.get(key)
        if new is value:
            continue
        code = _code_file(getattr(new, "fget", None) or getattr(new, "__func__", None) or new) if new else ""
        if not code or not os.path.realpath(code).startswith(own):
            found.append(".".join(key))
    return sorted(found)


def _code_file(obj) -> str:
    function = getattr(obj, "__wrapped__", obj)
    code = getattr(function, "__code__", None)
    if code is not None:
        return code.co_filename
    module = sys.modules.get(getattr(obj, "__module__", None) or type(obj).__module__)
    return getattr(obj, "__file__", None) or getattr(module, "__file__", None) or ""


def test_roots(args: list[str], root: str) -> tuple[str, ...]:
    """The test trees and files named on the command line (restore_tests.py has put them back pristine): a plugin
    module there (``pytest_plugins = ["tests.helpers"]``) is the project's own, not the agent's."""
    found = []
    for arg in args:
        real = os.path.realpath(arg) if not arg.startswith("-") and os.path.exists(arg) else ""
        if real.startswith(root + os.sep):  # never the rootdir itself (--rootdir's value)
            found.append(real + (os.sep if os.path.isdir(real) else ""))
    return tuple(found)


def _foreign(path: str, root: str, shipped: tuple[str, ...]) -> bool:
    real = os.path.realpath(path) if path else ""
    return (real.startswith(root + os.sep) and os.path.basename(real) != "conftest.py"
            and not any(real == s or (s.endswith(os.sep) and real.startswith(s)) for s in shipped))


def foreign_hooks(config, trusted: set[int], root: str, shipped: tuple[str, ...] = ()) -> list[str]:
    found = []
    for plugin in config.pluginmanager.get_plugins():
        if id(plugin) not in trusted and _foreign(_code_file(plugin), root, shipped):
            found.append(f"plugin {_code_file(plugin)}")
    for hook in CHECKED_HOOKS:
        for impl in getattr(config.pluginmanager.hook, hook).get_hookimpls():
            if id(impl.plugin) not in trusted and _foreign(_code_file(impl.function), root, shipped):
                found.append(f"{hook} from {_code_file(impl.function)}")
    return found


def junit_verdicts(path: str) -> dict:
    """(classname, name) -> passed, from pytest's own report (xunit1 names)."""
    if not os.path.isfile(path) or os.path.getsize(path) > 64 << 20:
        return {}
    with open(path, "rb") as handle:
        text = handle.read()
    if b"<!ENTITY" in text or b"<!DOCTYPE" in text:
        return {("<report>", "entity"): True}  # never what pytest writes; disagrees with every outcome
    verdicts: dict[tuple[str, str], bool] = {}
    for case in ET.fromstring(text).iter("testcase"):
        bad = any(child.tag in ("failure", "error", "skipped") for child in case)
        key = (case.get("classname", ""), case.get("name", ""))
        verdicts[key] = verdicts.get(key, True) and not bad
    return verdicts


def main(args: list[str]) -> int:
    try:
        with os.fdopen(3) as channel:
            target = channel.read().strip()
    except OSError:
        print("guarded_pytest: no report path on file descriptor 3 (run_tests.sh passes it)", file=sys.stderr)
        return 2
    for name in _pytest.config.default_plugins:  # each built-in plugin imported before any project code
        importlib.import_module(f"_pytest.{name}")
    modules = _watched_modules()
    before = snapshot(modules)
    private = tempfile.mkdtemp(prefix="nightshift-guard-")
    report = os.path.join(private, "report.xml")
    outcomes: dict[str, str] = {}
    problems: list[str] = []

    class Guard:
        config = None
        trusted: set[int] = set()

        @pytest.hookimpl(tryfirst=True)
        def pytest_load_initial_conftests(self, early_config):
            # trusted: what is registered before any conftest (and so any project code) is imported: pytest's
            # own plugins and the image's entry points; a library imported by a conftest comes after
            self.config = early_config
            self.trusted = {id(p) for p in early_config.pluginmanager.get_plugins()}

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_logreport(self, report):
            if report.outcome == "failed":
                outcomes[report.nodeid] = "failed"
            elif report.outcome == "skipped" and outcomes.get(report.nodeid) != "failed":
                outcomes[report.nodeid] = "skipped"
            else:
                outcomes.setdefault(report.nodeid, "passed")

        @pytest.hookimpl(tryfirst=True)
        def pytest_collectreport(self, report):  # junit has a testcase for a module that fails to collect
            if not report.passed:
                outcomes[report.nodeid] = "failed" if report.failed else "skipped"

        @pytest.hookimpl(tryfirst=True)
        def pytest_collection_finish(self, session):
            self.check("after collection")

        def check(self, when: str) -> None:
            problems.extend(f"{when}: changed {name}" for name in changed(before, modules)[:5])
            if self.config is not None:
                root = os.path.realpath(str(self.config.rootpath))
                found = foreign_hooks(self.config, self.trusted, root, test_roots(args, root))
                problems.extend(f"{when}: {hook}" for hook in found[:5])

    guard = Guard()
    code = pytest.main([*args, "--junitxml", report], plugins=[guard])
    guard.check("at the end")
    mangle = _pytest.junitxml.mangle_test_address
    ours: dict[tuple[str, str], bool] = {}
    for nodeid, outcome in outcomes.items():
        names = mangle(nodeid)
        key = (".".join(names[:-1]), names[-1])
        ours[key] = ours.get(key, True) and outcome == "passed"
    theirs = junit_verdicts(report)
    disagree = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
    if disagree:
        problems.append(f"the junit report disagrees with the run on {len(disagree)} tests, e.g. "
                        f"{'::'.join(disagree[0])}")
    if os.path.lexists(target):
        problems.append("something else wrote the report's path during the run")
    if not problems and os.path.isfile(report):
        try:
            with open(report, "rb") as src:
                data = src.read()
            shutil.rmtree(private, ignore_errors=True)
            out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            with os.fdopen(out, "wb") as dst:
                dst.write(data)
        except OSError as exc:
            problems.append(f"writing the report: {exc}")
    for problem in dict.fromkeys(problems):
        print(f"guarded_pytest: report void: {problem}", file=sys.stderr)
    return VOID if problems else int(code)


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)  # no atexit handler of the code under test runs after the report is written
