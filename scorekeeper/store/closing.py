"""A round seated on results closes them: once a tournament's next round is seated on a
match, or a club night's next round on the standings its tables made, no deal of those games
is entered, corrected or undone (``check_open``, inside every write of a deal). Only the
organiser reopens them: a tournament's match by ``reopen`` (the next round unseated while none
of its deals is played, and held until the organiser seats it again: ``seat_again``), a club
night's round by taking the next one back (``clubnights.undo_round``).
"""

from __future__ import annotations

from sqlite_utils import Database

from . import storage
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
REOPEN_LAST = N_("Only the round before the last one seated can be reopened.")
REOPEN_PLAYED = N_(
    "Deals are saved in round %(next)s (tables %(tables)s): round %(round)s can no longer "
    "be reopened."
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


def played_tables(db: Database, ids: list[int]) -> set[int]:
    """The games of *ids* with a deal saved."""
    if not ids:
        return set()
    return {
        r["game_id"]
        for r in db.query(
            f"select distinct game_id from deals where game_id in ({', '.join('?' * len(ids))})",
            ids,
        )
    }


def reopen(db: Database, tournament_id: int, number: int) -> None:
    """Reopen the matches of round *number* of a tournament: the round after it, the last
    seated, is unseated (its games, none of them begun, removed) and waits for the organiser
    (``seat_again``). Raises Refused."""
    with db.atomic():
        tables = list(
            db.query(
                "select round, table_number, game_id from tournament_tables "
                "where tournament_id = ? order by round, table_number, game_number",
                [tournament_id],
            )
        )
        last = max((t["round"] for t in tables), default=0)
        if last != number + 1 or number < 1:
            raise Refused(REOPEN_LAST)
        ids = [t["game_id"] for t in tables if t["round"] == last]
        played = played_tables(db, ids)
        if played:
            begun = sorted({t["table_number"] for t in tables if t["game_id"] in played})
            raise Refused(
                REOPEN_PLAYED,
                next=last,
                round=number,
                tables=", ".join(str(t) for t in begun),
            )
        db.execute(
            "delete from tournament_tables where tournament_id = ? and round = ?",
            [tournament_id, last],
        )
        for game_id in ids:  # never rated: no deal
            storage.delete_game(db, game_id, rate=False)
        db.execute("update tournaments set reopened = ? where id = ?", [number, tournament_id])


def seat_again(db: Database, tournament_id: int) -> None:
    """The organiser is done with a reopened round: the next one is seated as any other, as
    soon as its matches are decided (``tournaments.advance``)."""
    db.execute("update tournaments set reopened = null where id = ?", [tournament_id])
