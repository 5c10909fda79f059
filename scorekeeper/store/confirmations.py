"""Confirmation by the other side: a game's setting (``games.confirm``), off by default.

With it on, a deal saved by one phone waits until a phone of the other side confirms it:

- the phone that entered it never confirms it;
- under partnership, the other side is the other team: the confirming phone must say which
  player it is (``Phone.seat``), and that player must not be of the team of the player the
  entering phone said it was (when it said none, any player but the entering phone confirms);
- otherwise any other phone confirms, whether or not it said who it is.

A correction is a new entry: it waits again, for a phone other than the corrector's (its
team's, under partnership). Only the game's admin (the phone that started it, or the club
night's organiser, as the web wing tells with ``Phone.admin``) corrects a confirmed deal and
leaves it confirmed; the history records that as ``admin_confirm``. A thrown-in deal scores
nothing and needs no confirmation. Undoing a deal is as before (the deal is gone; a deal
entered in its place waits like any other).

This is state, not scoring: the engine scores a waiting deal as any other. Each confirmation
is a row of the history (``confirm``) with the phone and the player that gave it; its write,
with the checks above, is ``store/confirming.py``. This module is what the deal's writes
(``storage``), the import, the pages and a tournament read: who entered a deal, which deals
wait (``unconfirmed_deals``).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from sqlite_utils import Database

from .refused import N_

#: A phone's identity as its session holds it: 128 random bits, drawn by ``new_phone``.
PHONE = re.compile(r"[0-9a-f]{32}")


def new_phone() -> str:
    return secrets.token_hex(16)


@dataclass(frozen=True)
class Phone:
    """Who writes: the phone (its identity, or None from the command line or an import), the
    player it said it is (a seat, or None) and whether it is the game's admin."""

    id: str | None = None
    seat: int | None = None
    admin: bool = False


NOT_ASKED = N_("This game does not ask for confirmations.")
OWN_ENTRY = N_("This phone entered deal %(number)s: a phone of the other side confirms it.")
SAY_WHO = N_(
    "Say which player you are first: under partnership, a player of the other team confirms."
)
OWN_TEAM = N_(
    "Your team entered deal %(number)s: a player of the other team confirms it, on their phone."
)
NO_DEAL = N_("This game has no deal %(number)s.")
NOTHING_WAITING = N_("No deal was named to confirm.")


#: What a phone may no longer say of itself once it has entered or confirmed a deal.
SEAT_FIXED = N_(
    "This phone has entered or confirmed deals in this game as %(name)s, so it stays "
    "%(name)s here. Only the game’s admin changes who their own phone is."
)
SEAT_FIXED_NONE = N_(
    "This phone has entered or confirmed deals in this game without saying which player it "
    "is, so it stays so here. Only the game’s admin changes who their own phone is."
)

#: The history's actions by which a phone enters or confirms a deal.
_WRITES = ("create", "correct", "confirm", "admin_confirm")


def recorded_seat(db: Database, game_id: int, phone: str | None) -> tuple[bool, int | None]:
    """Has *phone* entered or confirmed a deal of game *game_id* (one undone since counts:
    the history keeps it), and the player (seat, or None) it said it was when it last did."""
    if phone is None:
        return False, None
    row = db.execute(
        f"select seat from deal_history where game_id = ? and phone = ? "
        f"and action in ({', '.join('?' * len(_WRITES))}) order by id desc limit 1",
        [game_id, phone, *_WRITES],
    ).fetchone()
    return (True, row[0]) if row is not None else (False, None)


def settled(db: Database, game_id: int, by: Phone | None) -> Phone | None:
    """The phone *by* as it writes to game *game_id*: once it has entered or confirmed a deal
    there, it is the player it was then, whatever it says now ("I am …" is fixed from then
    on), unless it is the game's admin. A confirmation proves no more than that: another phone
    that follows the game tapped it (docs/players.md "Confirmation by the other side")."""
    if by is None or by.id is None or by.admin:
        return by
    done, seat = recorded_seat(db, game_id, by.id)
    return Phone(by.id, seat, by.admin) if done else by


def is_on(row: dict[str, Any]) -> bool:
    """Does the game of this ``games`` row ask for confirmations?"""
    return bool(row.get("confirm"))


def waiting_numbers(row: dict[str, Any], deals: Sequence[dict[str, Any]]) -> list[int]:
    """The numbers of the deals (rows of ``deals``, in order) still waiting for the other
    side, for the game of *row*."""
    if not is_on(row):
        return []
    return [d["number"] for d in deals if d.get("confirmed_at") is None]


def unconfirmed_deals(db: Database, game_id: int) -> list[int]:
    """The numbers of the deals of game *game_id* waiting for the other side (none when the
    game does not ask for confirmations): a match is not over while this is not empty."""
    return [
        r[0]
        for r in db.execute(
            "select d.number from deals d join games g on g.id = d.game_id "
            "where d.game_id = ? and g.confirm and d.confirmed_at is null order by d.number",
            [game_id],
        ).fetchall()
    ]


def entered(
    db: Database,
    deal_id: int,
    by: Phone | None,
    *,
    asked: bool,
    was_confirmed: bool,
    thrown_in: bool,
    stamp: str,
) -> str | None:
    """Inside the write of a new or corrected deal: note the phone and player that entered
    it, and whether it waits. Returns the history action to add after the entry's own row
    (``admin_confirm`` when the admin's correction leaves a confirmed deal confirmed)."""
    by = by or Phone()
    keep = asked and was_confirmed and by.admin
    confirmed = not asked or thrown_in or keep
    values: dict[str, Any] = {
        "entered_by": by.id,
        "entered_seat": by.seat,
        "confirmed_at": stamp if confirmed else None,
        "confirmed_by": by.id if keep else None,
        "confirmed_seat": by.seat if keep else None,
    }
    db.execute(
        f"update deals set {', '.join(f'{k} = ?' for k in values)} where id = ?",
        [*values.values(), deal_id],
    )
    return "admin_confirm" if keep else None


def mark_imported(db: Database, game_id: int, waiting: Sequence[int]) -> None:
    """An imported game that asks for confirmations: its deals *waiting* wait again (any phone
    confirms them, no phone here having entered them); the others stay confirmed."""
    db.execute("update games set confirm = 1 where id = ?", [game_id])
    db.execute(
        "update deals set confirmed_at = coalesce(confirmed_at, updated_at) where game_id = ?",
        [game_id],
    )
    if waiting:
        db.execute(
            f"update deals set confirmed_at = null where game_id = ? and thrown_in is null "
            f"and number in ({', '.join('?' * len(waiting))})",
            [game_id, *waiting],
        )
