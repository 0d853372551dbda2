"""`python -m nightshift.cli ...` is the `nightshift` command."""

import sys

from nightshift.cli.main import main

sys.exit(main())
