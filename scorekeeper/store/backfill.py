"""The backfill: what the store derives from the games, made again by today's code, once per
``VERSION``, after the last migration.

A migration changes the schema and nothing else (``schema.py``). What the store keeps derived
from the stored games, for pages to read by SQL, is this module's: each game's summary (totals,
places, the next King, whether it is over), its facts and its records (``storage.store_summary``,
``facts``), the players' sums per night and over every night, their ratings and winning runs per night (``playsums``, versions 2 and 3), and the ratings (``ratings.recompute``); and the players' names as today's rules keep
them (``show_every_character``). It runs when the database's recorded version (SQLite's
``user_version``) is below ``VERSION``: once on a database an older version wrote, and once, over
no game, on a new one. A save therefore never asks which migrations ran: every table and column
it writes is there.

Raise ``VERSION`` when a change of the engine or of the store changes what is derived from a
stored game: every database is then backfilled once more, at the next ``scorekeeper migrate`` or
start.
"""

from __future__ import annotations

from sqlite_utils import Database

from ..engine import InvalidResult
from ..engine.gamefile import name_problem
from ..engine.lookalike import hidden
from . import playsums, ratings, storage
from .schema import migrate, migrations

#: The backfill's version: what today's code derives from a stored game (see above).
VERSION = 3


def version(db: Database) -> int:
    """The version of the backfill *db* was last brought to (0: never)."""
    return int(db.execute("pragma user_version").fetchone()[0])


def behind(db: Database) -> bool:
    """Whether *db* waits for a migration or for the backfill (a read)."""
    return bool(migrations.pending(db)) or version(db) < VERSION


def up_to_date(db: Database) -> list[str]:
    """Bring *db* up to date: every pending migration, then the backfill where its version is
    behind, all in one transaction (a failure leaves the database as it was, ``MigrationFailed``
    for a migration). The names of the migrations applied; nothing is written, and no write
    lock taken, when nothing is behind."""
    if not behind(db):
        return []
    with db.atomic():
        names = migrate(db)
        if version(db) < VERSION:
            backfill(db)
    return names


def backfill(db: Database) -> None:
    """Make again, by today's code, what the store derives from every stored game, and record
    ``VERSION``; in one transaction. A game the engine cannot read at all is left as it is."""
    with db.atomic():
        show_every_character(db)
        for (game_id,) in list(db.execute("select id from games order by id").fetchall()):
            try:
                stored = storage.load_game(db, game_id)
            except InvalidResult:
                continue
            if stored is not None:  # touch=False: reading a game again is no change of it
                storage.store_summary(db, game_id, stored.game, touch=False, rate=False)
        playsums.rebuild(db)
        if ratings.enabled(db):
            ratings.recompute(db)
        record(db)


def record(db: Database) -> None:
    """Record that *db*'s derived data is today's (a restore, which scores every game again
    itself, says so)."""
    db.execute(f"pragma user_version = {VERSION}")


def show_every_character(db: Database) -> None:
    """Names hold no character that does not show (issue 27: four players that all read "Aya"):
    each stored name that does loses them. One that then shows nothing is called "Player <id>";
    one that is then another player's name gets " (2)", " (3)"... after it."""
    for pid, name in list(db.execute("select id, name from players").fetchall()):
        if not any(hidden(c) for c in name):
            continue
        shown = storage.clean_name("".join(c for c in name if not hidden(c)))
        if name_problem(shown) is not None:
            shown = f"Player {pid}"
        candidate, number = shown, 1
        while (
            db.execute(
                "select 1 from players where name_key = ? and id != ?",
                [storage.name_key(candidate), pid],
            ).fetchone()
            is not None
        ):
            number += 1
            candidate = f"{shown} ({number})"
        db.execute(
            "update players set name = ?, name_key = ? where id = ?",
            [candidate, storage.name_key(candidate), pid],
        )
