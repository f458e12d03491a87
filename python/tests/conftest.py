"""pytest finds the tests' helpers (cli_comparison.py) and kernels (kernels/) beside them."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
