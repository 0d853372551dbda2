"""Hidden stress-test runner (HumanEval and built-in function cases), run in the sandbox after the agent has finished.

Imports the candidate (module ``solution`` or the spec's ``module``) from /workspace, calls it on
every input of inputs.json (each under its own time limit) and prints one JSON record per input
on a private copy of stdout: ``{"i": k, "out": repr(value)}`` or ``{"i": k, "error": "..."}``.
The expected values stay on the grading host; the candidate's own prints go to stderr so they
cannot garble the records.
"""

import ast
import json
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _alarm(signum, frame):
    raise TimeoutError("input ran past its time limit")


def main():
    with open(os.path.join(HERE, "inputs.json"), encoding="utf-8") as handle:
        spec = json.load(handle)
    records = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.setrecursionlimit(5000)
    signal.signal(signal.SIGALRM, _alarm)
    inputs = [ast.literal_eval(text) for text in spec["inputs"]]
    try:
        sys.path.insert(0, "/workspace")
        module = __import__(spec.get("module", "solution"))
        function = getattr(module, spec["entry_point"])
    except BaseException as exc:  # the candidate did not even import: every input fails
        for index in range(len(inputs)):
            records.write(json.dumps({"i": index, "error": f"import failed: {type(exc).__name__}: {exc}"[:300]}) + "\n")
        records.flush()
        return
    for index, args in enumerate(inputs):
        signal.setitimer(signal.ITIMER_REAL, spec["per_input_s"])
        try:
            record = {"i": index, "out": repr(function(*args))}
        except BaseException as exc:
            record = {"i": index, "error": f"{type(exc).__name__}: {exc}"[:300]}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        records.write(json.dumps(record) + "\n")
        records.flush()


main()
