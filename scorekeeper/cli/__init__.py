"""The ``scorekeeper`` command: every subcommand, one module per group.

- ``score``, ``simulate``: the engine on a game file or on bots' games (``score.py``);
- ``advise``: which open contract a King's hand is best for (``advise.py``);
- ``pdf``, ``blank-sheet``: printed scoresheets (``sheets.py``);
- ``export``, ``import``, ``backup``, ``restore``, ``links``, ``admin-link``, ``join-link``:
  the stored games and who may change them (``data.py``);
- ``ratings``: the players' ratings (``ratings.py``);
- ``season``: the standings of the games between two dates (``seasons.py``);
- ``groups``: the groups of a box that hosts many (``groups.py``);
- ``migrate``: every database brought up to date after an upgrade (``migrate.py``);
- ``serve``: the table app under a production server (``serve.py``, the one module that
  imports the web wing).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .. import __version__
from . import advise, data, groups, migrate, ratings, score, seasons, serve, sheets
from .common import fail, name_database, resolve_group, use_instance

#: The modules that add subcommands, in the order ``--help`` lists them.
GROUPS = (serve, migrate, groups, score, advise, sheets, data, ratings, seasons)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Trex Scorekeeper: score, serve and simulate."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    use_instance(args)
    problem = resolve_group(args)
    if problem:
        return fail([problem])
    name_database(args)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
