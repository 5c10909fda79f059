"""The store: games, players and deals in SQLite through sqlite-utils, and what is read from
them. It imports the engine and never the web wing, so a script can use it alone::

    from scorekeeper import store

    db = store.open_database()                # the app's database (or a path)
    for row in store.stats.leaderboard(db, store.stats.Filters()):
        print(row["name"], row["wins"])

Modules: ``db`` (connections), ``schema`` (migrations), ``backfill`` (what is derived from
the games, made again after the migrations), ``storage`` (games and deals, every
write checked by the engine), ``facts`` and ``stats`` (what the statistics pages add up by
SQL), ``transfer`` (the game file format in and out), ``backup`` (backup and restore),
``keys`` (edit keys, view keys, PIN tries, the install's admin and join keys), ``players``
(renaming, merging, deleting, a name fixed in one game),
``kept`` (the one bounded in-memory map every cache uses) and ``paths`` (where the database
lives).
"""

from __future__ import annotations

import os

from sqlite_utils import Database

from . import backfill, db, facts, paths, schema, stats, storage, transfer
from .paths import database_file


def open_database(path: str | os.PathLike[str] | None = None) -> Database:
    """Open the database at *path* (default: the app's, see ``paths``), creating it if
    needed, with every migration applied and the backfill run."""
    database = db.connect(database_file(path))
    backfill.up_to_date(database)
    return database


__all__ = [
    "Database",
    "backfill",
    "database_file",
    "db",
    "facts",
    "open_database",
    "paths",
    "schema",
    "stats",
    "storage",
    "transfer",
]
