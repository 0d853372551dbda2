"""nightshift: evaluate LLM-agent harnesses at scale.

This package holds the shared contracts (``contracts``), the data that flows between the parts
(``models``) and the command line (``cli``). The parts themselves live in the top-level folders named
for what they are: experiment/, flows/, tasks/, sandbox/, gateway/, simulator/, harnesses/, suites/,
graders/, analysis/.
"""

__version__ = "0.1.0"
