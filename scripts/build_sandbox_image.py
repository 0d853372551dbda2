"""Build the sandbox base image: the same as `nightshift build-image` (nightshift/sandbox/base_image.py)."""

import sys

from nightshift.sandbox.base_image import main

if __name__ == "__main__":
    sys.exit(main())
