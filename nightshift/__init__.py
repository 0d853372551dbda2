"""nightshift: evaluate LLM-agent harnesses at scale.

Everything imports as ``nightshift.<part>``. This folder is the bottom layer, importing no part: the shared
contracts (``contracts``, ``metrics``), the data that flows between the parts (``models``), the errors
(``errors``), the plugin registries (``registry``, ``plugins``) and the public surface for plugin authors
(``plugin``). The parts live in the repository's top-level folders named for what they are, installed as
subpackages (pyproject.toml maps each folder to ``nightshift.<folder>``); docs/ARCHITECTURE.md draws the layers.
"""

__version__ = "0.1.0"

# the subpackages mapped from the top-level folders (pyproject.toml [tool.setuptools.package-dir])
PARTS = ("analysis", "cli", "deployments", "examples", "experiment", "flows", "gateway", "gpu", "graders", "harnesses",
         "planner", "preflight", "protocols", "results", "sandbox", "simulator", "splits", "suites", "tasks", "viewer")
