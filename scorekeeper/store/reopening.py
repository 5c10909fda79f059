"""The organiser reopens a tournament's round (``store.closing`` closes a match once the next
round is seated on it): the next round, while none of its deals is played, is unseated, and
held until the organiser seats it again."""

from __future__ import annotations

from sqlite_utils import Database

from . import storage
from .refused import N_, Refused

REOPEN_LAST = N_("Only the round before the last one seated can be reopened.")
REOPEN_PLAYED = N_(
    "Deals are saved in round %(next)s (tables %(tables)s): round %(round)s can no longer "
    "be reopened."
)


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
