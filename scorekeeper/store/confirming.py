"""The write of a confirmation by the other side (``store/confirmations.py`` says what it
means): inside one transaction that takes the game's write lock, the deal is read again, the
phone is checked against the side that entered it, and the deal and its history row are
written. The same tap sent twice records one confirmation; a version corrected since is a
``Conflict``, said with the "changed meanwhile" page."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from ..engine.seats import Seat
from .confirmations import NO_DEAL, NOT_ASKED, OWN_ENTRY, OWN_TEAM, SAY_WHO, Phone, is_on
from .refused import Refused
from .storage import CHANGED_MEANWHILE, Conflict, NotFound, now, record_history


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


def confirm(
    db: Database, game_id: int, number: int, *, version: int, deal_id: int | None, by: Phone
) -> None:
    """Confirm deal *number* of game *game_id*, as its version *version* (the one the phone
    saw), by the phone *by*.

    Raises NotFound (no such game or deal), Conflict (the deal was corrected, or undone,
    since the phone saw it), AlreadyConfirmed (nothing recorded twice), Refused (the game does
    not ask for confirmations; the side that entered it; under partnership, a phone that did
    not say who it is).
    """
    with db.atomic():
        stamp = now()
        # the write lock first, as every write of a game (storage._begin_write)
        if db.execute("update games set updated_at = ? where id = ?", [stamp, game_id]).rowcount:
            game = next(db.query("select confirm, rules_json from games where id = ?", [game_id]))
        else:
            raise NotFound(f"no game {game_id}")
        if not is_on(game):
            raise Refused(NOT_ASKED)
        row = next(
            db.query("select * from deals where game_id = ? and number = ?", [game_id, number]),
            None,
        )
        if row is None or (deal_id is not None and row["id"] != deal_id):
            if row is None and deal_id is None:
                raise Refused(NO_DEAL, number=number)
            raise Conflict(CHANGED_MEANWHILE, number=number)
        if row["version"] != version:
            raise Conflict(CHANGED_MEANWHILE, number=number)
        if row["confirmed_at"] is not None:
            raise AlreadyConfirmed(number)
        _check_side(row, bool(json.loads(game["rules_json"]).get("partnership")), by)
        db.execute(
            "update deals set confirmed_by = ?, confirmed_seat = ?, confirmed_at = ? where id = ?",
            [by.id, by.seat, stamp, row["id"]],
        )
        record_history(
            db,
            row["id"],
            game_id,
            number,
            version,
            json.loads(row["record_json"]),
            [row[f"score_{s}"] for s in range(4)],
            "confirm",
            None,
            by=by,
        )
