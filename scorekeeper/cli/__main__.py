"""``python -m scorekeeper.cli``: the ``scorekeeper`` command."""

import sys

from . import main

sys.exit(main())
