"""The write of a confirmation by the other side (``store/confirmations.py`` says what it
means): inside one transaction that takes the game's write lock, the deal is read again, the
phone is checked against the side that entered it, and the deal and its history row are
written. The same tap sent twice records one confirmation; a version corrected since (each
version has its own key, never given twice) is a ``Conflict``, said with the "changed
meanwhile" page. "Confirm all" confirms several deals in one transaction, all or none."""

from __future__ import annotations

import json
from typing import Any, Sequence

from sqlite_utils import Database

from ..engine.seats import Seat
from .confirmations import (
    NO_DEAL,
    NOT_ASKED,
    NOTHING_WAITING,
    OWN_ENTRY,
    OWN_TEAM,
    SAY_WHO,
    Phone,
    is_on,
    settled,
)
from .refused import Refused
from .storage import CHANGED_MEANWHILE, Conflict, NotFound, check_version, now, record_history


class AlreadyConfirmed(Exception):
    """The deal's version is confirmed already (the same tap sent twice): nothing is
    recorded twice."""

    def __init__(self, number: int):
        super().__init__(f"deal {number} is confirmed already")
        self.number = number


def _check_side(row: dict[str, Any], partnership: bool, by: Phone) -> None:
    """Refuse a confirmation by the side that entered the deal of *row*."""
    number = row["number"]
    if by.id is None or (row["entered_by"] is not None and by.id == row["entered_by"]):
        raise Refused(OWN_ENTRY, number=number)
    if partnership:
        if by.seat is None:
            raise Refused(SAY_WHO, number=number)
        entered = row["entered_seat"]
        if entered is not None and Seat(by.seat).team == Seat(entered).team:
            raise Refused(OWN_TEAM, number=number)


def _begin(db: Database, game_id: int, stamp: str) -> dict[str, Any]:
    """Inside the transaction: the write lock first, as every write of a game
    (storage._begin_write); the game's row, which must ask for confirmations."""
    if db.execute("update games set updated_at = ? where id = ?", [stamp, game_id]).rowcount:
        game = next(db.query("select confirm, rules_json from games where id = ?", [game_id]))
    else:
        raise NotFound(f"no game {game_id}")
    if not is_on(game):
        raise Refused(NOT_ASKED)
    return game


def _seen_row(
    db: Database, game_id: int, number: int, version: int, deal_id: int | None, key: str | None
) -> dict[str, Any]:
    """The row of deal *number*, which must be the version the phone saw (Conflict)."""
    row = next(
        db.query("select * from deals where game_id = ? and number = ?", [game_id, number]),
        None,
    )
    if row is None or (deal_id is not None and row["id"] != deal_id):
        if row is None and deal_id is None:
            raise Refused(NO_DEAL, number=number)
        raise Conflict(CHANGED_MEANWHILE, number=number)
    check_version(row, version, key)
    return row


def _write(db: Database, game_id: int, row: dict[str, Any], by: Phone, stamp: str) -> None:
    db.execute(
        "update deals set confirmed_by = ?, confirmed_seat = ?, confirmed_at = ? where id = ?",
        [by.id, by.seat, stamp, row["id"]],
    )
    record_history(
        db,
        row["id"],
        game_id,
        row["number"],
        row["version"],
        json.loads(row["record_json"]),
        [row[f"score_{s}"] for s in range(4)],
        "confirm",
        None,
        by=by,
        key=row["version_key"],
    )


def confirm(
    db: Database,
    game_id: int,
    number: int,
    *,
    version: int,
    deal_id: int | None,
    by: Phone,
    key: str | None = None,
) -> None:
    """Confirm deal *number* of game *game_id*, as its version *version* (the one the phone
    saw, and that version's *key*: every page's form names it), by the phone *by*.

    Raises NotFound (no such game or deal), Conflict (the deal was corrected, or undone,
    since the phone saw it), AlreadyConfirmed (nothing recorded twice), Refused (the game does
    not ask for confirmations; the side that entered it; under partnership, a phone that did
    not say who it is).
    """
    confirm_all(db, game_id, [(number, version, deal_id, key)], by=by)


#: One deal a phone confirms: its number, the version it saw, its id and that version's key.
Seen = tuple[int, int, int | None, str | None]


def confirm_all(db: Database, game_id: int, deals: Sequence[Seen], *, by: Phone) -> list[int]:
    """Confirm every one of *deals* of game *game_id* by the phone *by*, in one transaction:
    all of them, or, when one was changed meanwhile (Conflict) or may not be confirmed by this
    phone (Refused), none. A deal confirmed already (the same tap sent twice) is left as it
    is; when all of them were, AlreadyConfirmed. Returns the numbers confirmed."""
    if not deals:
        raise Refused(NOTHING_WAITING)
    with db.atomic():
        stamp = now()
        game = _begin(db, game_id, stamp)
        rows = [_seen_row(db, game_id, n, v, i, k) for n, v, i, k in deals]
        waiting = [row for row in rows if row["confirmed_at"] is None]
        if not waiting:
            raise AlreadyConfirmed(rows[0]["number"])
        by = settled(db, game_id, by) or by
        partnership = bool(json.loads(game["rules_json"]).get("partnership"))
        for row in waiting:
            _check_side(row, partnership, by)
        for row in waiting:
            _write(db, game_id, row, by, stamp)
    return [row["number"] for row in waiting]
