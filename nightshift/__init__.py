"""nightshift: evaluate LLM-agent harnesses at scale.

Everything imports as ``nightshift.<part>``. This folder holds the shared contracts (``contracts``), the
data that flows between the parts (``models``), the plugin registries (``registry``, ``plugins``) and the
command line (``cli``). The parts themselves live in the repository's top-level folders named for what
they are, installed as subpackages (pyproject.toml maps each folder to ``nightshift.<folder>``).
"""

__version__ = "0.1.0"

# the subpackages mapped from the top-level folders (pyproject.toml [tool.setuptools.package-dir])
PARTS = ("analysis", "deployments", "experiment", "flows", "gateway", "gpu", "graders", "harnesses", "planner",
         "sandbox", "simulator", "suites", "tasks", "viewer")
