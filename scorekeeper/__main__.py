"""``python -m scorekeeper``: the ``scorekeeper`` command."""

import sys

from .cli import main

sys.exit(main())
