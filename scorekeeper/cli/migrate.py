"""``scorekeeper migrate``: every database of the install brought up to date at once, after an
upgrade (``serve`` does the same at its start), with one summary line (UPGRADING.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..settings import environ
from .common import EXIT_NOT_FOUND, add_db_option, groups_host


def cmd_migrate(args: argparse.Namespace) -> int:
    from .. import __version__
    from ..store.paths import DATABASE_FILE
    from ..store.upgrade import upgrade_install

    host = groups_host()
    if args.db:  # --db PATH, --group ID or $SCOREKEEPER_DB: that database alone, never made
        done = upgrade_install(host.instance, database=args.db, create=False)
    else:  # the instance's database, and on a box of many groups its register and groups
        many = bool(environ("SCOREKEEPER_GROUPS")) or host.register_path.exists()
        one = host.instance / DATABASE_FILE
        done = upgrade_install(
            host.instance, database=one if one.exists() or not many else None, groups=many
        )
    for line in done.problems():
        print(line, file=sys.stderr)
    print(done.line(__version__))
    return 0 if done.ok else EXIT_NOT_FOUND


def add_commands(sub: Any) -> None:
    command = sub.add_parser(
        "migrate",
        help="bring every database up to date after an upgrade (serve does it at its start)",
        description="Bring every database of the install up to date: the one database, or on "
        "a box of many groups the register and every group; each in one transaction, left "
        "as it was when a migration fails. Prints one summary line; exit status 1 when a "
        "database could not be brought up to date (one line each on standard error).",
    )
    add_db_option(command)
    command.set_defaults(func=cmd_migrate)
