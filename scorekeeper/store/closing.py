"""A round seated on results closes them: once a tournament's next round is seated on a
match, or a club night's next round on the standings its tables made, no deal of those games
is entered, corrected or undone (``check_open``, inside every write of a deal). Only the
organiser reopens them: a tournament's match by ``reopening.reopen`` (the next round unseated
while none of its deals is played, and held until the organiser seats it again), a club night's
round by taking the next one back (``clubnights.undo_round``).
"""

from __future__ import annotations

from sqlite_utils import Database

from .refused import N_, Refused

MATCH_CLOSED = N_(
    "Round %(next)s of the tournament is seated on this match’s result, so its games are "
    "closed: no deal can be entered, corrected or undone. The tournament’s organiser can "
    "reopen the match while round %(next)s has no deal."
)
TABLE_CLOSED = N_(
    "Round %(next)s of the club night is seated on the standings this table made, so its "
    "deals are closed: none can be entered, corrected or undone. The night’s organiser can "
    "take round %(next)s back while it has no deal."
)


class Closed(Refused):
    """A deal written to a game whose results the next round is seated on."""


def closed(db: Database, game_id: int) -> Closed | None:
    """Why the game's deals are closed, or None when they are open."""
    for sql, message in (
        (
            "select t.round, (select max(round) from tournament_tables u where "
            "u.tournament_id = t.tournament_id) as last from tournament_tables t "
            "where t.game_id = ?",
            MATCH_CLOSED,
        ),
        (
            "select t.round, (select max(round) from club_tables u where "
            "u.club_night_id = t.club_night_id) as last from club_tables t where t.game_id = ?",
            TABLE_CLOSED,
        ),
    ):
        row = next(db.query(sql, [game_id]), None)
        if row is not None and row["last"] > row["round"]:
            return Closed(message, next=row["round"] + 1)
    return None


def check_open(db: Database, game_id: int) -> None:
    """Raise Closed when the game's deals are closed."""
    refusal = closed(db, game_id)
    if refusal is not None:
        raise refusal
