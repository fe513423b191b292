#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Explain a run of the BCM4331 model: what the driver said to the card.

The command of the package scripts/bcmexplain/ (its cli.py; --help); loaded
as a module, as the tests do, it gives the names they use."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bcmexplain import Explainer  # noqa: E402
from bcmexplain.cli import main  # noqa: E402
from bcmexplain.headers import HEADERS, RegDefs  # noqa: E402
from bcmexplain.phases import PHASES  # noqa: E402
from bcmexplain.render import Transcript  # noqa: E402

__all__ = ["Explainer", "HEADERS", "PHASES", "RegDefs", "Transcript", "main"]

if __name__ == "__main__":
    sys.exit(main())
