"""Which packages of the shipped repository suite each catalogue agent's install lets a trial read.

Each agent is installed (harnesses/derived_image.py, content-keyed: reused when built before) on one real task image
(default: more-itertools 10.2.0's, from the PyPI cache; an agent's venv does not depend on the task under it) and
scanned as the trial's user (harnesses/install_copies.py); the names found are matched against the import names of
suites/pypi/*/case.toml ``[source]``. Prints a markdown table and each agent's build and scan seconds.

    .venv/bin/python bench/agent_copies.py [--agents mini-swe-agent,aider] [--image IMAGE_ID]
"""

from __future__ import annotations

import argparse
import time
import tomllib
from pathlib import Path

from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses import install_copies
from nightshift.harnesses.agent_catalogue import CATALOGUE
from nightshift.harnesses.pins import derive_case_image
from nightshift.harnesses.resolve import resolve_harness

AGENTS = ["mini-swe-agent", "aider", "gptme", "codex", "claude-code"]
SHIPPED = Path(__file__).resolve().parent.parent / "suites" / "pypi"


def shipped_names() -> dict[str, int]:
    """Import name -> how many shipped cases test that package."""
    counts: dict[str, int] = {}
    for meta in sorted(SHIPPED.glob("*/case.toml")):
        for name in install_copies.source_import_names(tomllib.loads(meta.read_text()).get("source", {})):
            counts[name] = counts.get(name, 0) + 1
    return counts


def task_image() -> str:
    from nightshift.suites.pypi_tasks import image as images
    from nightshift.suites.pypi_tasks.download import fetch_project

    return images.project_image(images.client(), fetch_project("more-itertools==10.2.0"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--image", help="a task image id (default: more-itertools 10.2.0's)")
    args = parser.parse_args()
    image = args.image or task_image()
    wanted = shipped_names()
    print(f"task image {image[:19]}; shipped-suite packages: {', '.join(f'{n} ({c})' for n, c in wanted.items())}")
    rows = []
    for name in args.agents.split(","):
        entry = getattr(CATALOGUE, name)
        spec = resolve_harness(HarnessSpec(kind="installed", name=name, version=entry.versions[0])).spec
        started = time.monotonic()
        made = derive_case_image(image, spec.install)
        built = time.monotonic() - started
        started = time.monotonic()
        names = install_copies.install_names(made, image)
        scanned = time.monotonic() - started
        hits = {n: names[n] for n in wanted if n in names}
        print(f"{name} {entry.versions[0]}: image {'built' if made.built else 'reused'} in {built:.0f} s, scanned "
              f"in {scanned:.1f} s, {len(names)} import names readable", flush=True)
        cell = "; ".join(f"`{n}` ({wanted[n]} cases): `{p[0]}`" + (f" (+{len(p) - 1} more)" if len(p) > 1 else "")
                         for n, p in hits.items()) or "none"
        rows.append(f"| {name} {entry.versions[0]} | {len(names)} | {cell} |")
    print("\n| agent | import names its install adds | shipped-suite packages a trial can read there |\n"
          "| --- | --- | --- |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
