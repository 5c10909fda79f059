"""What a club night and a tournament keep alike: the tables of their rounds, each an ordinary
game, and the version of the whole that their pages and walls poll (``web/making/boards.py``).

The version is read from each table's game version tag (``m007_version_tags``), which SQLite
draws again on every change of the game, its deals, its seats or its players' names: with the
list of the games it changes with every round seated or taken back and every write to one of
its games. Reading it is one query by the board's id, so that a poll answered 304 reads nothing
else."""

from __future__ import annotations

import hashlib
from typing import Iterable

from sqlite_utils import Database

#: Each kind of board: its table, the table of its rounds' games, that table's column of the
#: board's id, and the order of its games.
BOARDS = {
    "club": ("club_nights", "club_tables", "club_night_id", "t.round, t.table_number"),
    "tournament": (
        "tournaments",
        "tournament_tables",
        "tournament_id",
        "t.round, t.table_number, t.game_number",
    ),
}


def version(db: Database, kind: str, ident: int) -> str | None:
    """The board's version (a short tag); None when there is no such club night or
    tournament."""
    table, tables, column, order = BOARDS[kind]
    rows = db.execute(
        f"select b.id, t.game_id, g.version_tag from {table} b "
        f"left join {tables} t on t.{column} = b.id left join games g on g.id = t.game_id "
        f"where b.id = ? order by {order}",
        [ident],
    ).fetchall()
    if not rows:
        return None
    return tag_of(ident, ((r[1], r[2]) for r in rows if r[1] is not None))


def tag_of(ident: int, games: Iterable[tuple[int, str]]) -> str:
    """The version of board *ident* whose games, in order, have these ids and version tags
    (``version``'s answer, from a board already loaded)."""
    text = f"{ident};" + ";".join(f"{game_id}:{tag}" for game_id, tag in games)
    return hashlib.sha1(text.encode()).hexdigest()[:16]
