"""Confirmation by the other side: "I am …" and the one tap that confirms a deal.

Any phone that may follow the game (the game page, or the scoreboard its view link opens)
says which player it is and confirms the deals the other side entered; the store decides
whether it may (``store/confirmations.py``). Once it has entered or confirmed a deal there,
its "I am …" is fixed: only the game's admin changes their own. Every post carries the form's
CSRF token; a confirmation names the deal's id, the version the phone saw and that version's
key (never given twice, not even to the deal entered in the place of an undone one), so the
same tap sent twice records one confirmation, and a deal changed meanwhile gets the "changed
meanwhile" page. "Confirm all N waiting" names each deal's version the same way and confirms
all of them in one transaction, or none when one changed meanwhile.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, abort, redirect, request
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import HiddenField

from ...engine.seats import Seat
from ...store import confirmations, confirming, storage
from ...store.confirming import AlreadyConfirmed
from ...store.refused import Refused
from ...store.storage import StoredGame
from ..making import meanwhile, present
from ..access import phones
from ..making.boards import seating_after
from ..access.database import get_db
from ..making.fields import form_int
from ..making.flashes import flash_message, flash_plural, flash_refusal
from ..keeping.readysheets import after_save
from ..access.rights import safe_next
from .games import fetch_game

bp = Blueprint("confirm", __name__, url_prefix="/games/<int:game_id>")


class ConfirmForm(FlaskForm):
    """One tap: the deal's id and the version the phone saw; where to go back to."""

    deal_id = HiddenField()
    version = HiddenField()
    version_key = HiddenField()
    next = HiddenField()


class ConfirmAllForm(FlaskForm):
    """ "Confirm all N waiting": one ``deal`` field per deal, each naming the version the phone
    saw (``SEEN``); where to go back to."""

    next = HiddenField()


#: How "Confirm all" names each deal it confirms: number, id, version and version key.
SEEN = re.compile(r"([1-9][0-9]{0,3})\.([1-9][0-9]{0,17})\.([1-9][0-9]{0,5})\.([0-9a-f]{32})")
#: The most deals one "Confirm all" names (a game has fewer).
MOST = 200


class SeatForm(FlaskForm):
    """ "I am …": a player's button (``seat``, empty to forget it); where to go back to."""

    next = HiddenField()


def _back(game_id: int) -> str:
    return safe_next(game_id, request.form.get("next"))


@bp.post("/deals/<int:number>/confirm")
def confirm(game_id: int, number: int):
    stored = fetch_game(game_id)
    form = ConfirmForm()
    deal_id = form_int(form.deal_id.data)
    version = form_int(form.version.data)
    if not form.validate() or deal_id is None or version is None:
        abort(400, _("This form is incomplete. Open the game again and tap Confirm again."))
    try:
        with seating_after(game_id):  # the confirmation that ends a match seats the next round
            confirming.confirm(
                get_db(),
                game_id,
                number,
                version=version,
                deal_id=deal_id,
                key=form.version_key.data or "",
                by=phones.current(stored),
            )
    except AlreadyConfirmed:
        flash_message(
            "Deal %(number)s was confirmed already: nothing was recorded twice.", number=number
        )
    except storage.Conflict:
        return stale(fetch_game(game_id), number, deal_id, version, form.version_key.data)
    except storage.NotFound:
        abort(404, _("This game has no deal %(number)s.", number=number))
    except Refused as exc:
        flash_refusal(exc)
    else:
        flash_message("Deal %(number)s confirmed.", number=number)
        after_save(game_id)  # the printed sheet, made ready again without the mark
    return redirect(_back(game_id), 303)


@bp.post("/confirm-all")
def confirm_all(game_id: int):
    """ "Confirm all N waiting": every deal the form names, as the version it names, in one
    transaction; none when one of them changed meanwhile (409, the "changed meanwhile" page)."""
    stored = fetch_game(game_id)
    form = ConfirmAllForm()
    sent = request.form.getlist("deal")
    seen = [SEEN.fullmatch(value) for value in sent[: MOST + 1]]
    if not form.validate() or not seen or len(seen) > MOST or not all(seen):
        abort(400, _("This form is incomplete. Open the game again and tap Confirm again."))
    deals = [(int(m[1]), int(m[3]), int(m[2]), m[4]) for m in seen if m is not None]
    try:
        with seating_after(game_id):
            numbers = confirming.confirm_all(get_db(), game_id, deals, by=phones.current(stored))
    except AlreadyConfirmed:
        flash_message("These deals were confirmed already: nothing was recorded twice.")
    except storage.Conflict as exc:
        number = exc.values["number"]
        named = next(d for d in deals if d[0] == number)
        return stale(fetch_game(game_id), number, named[2], named[1], named[3])
    except storage.NotFound:
        abort(404, _("This game has no such deal."))
    except Refused as exc:
        flash_refusal(exc)
    else:
        flash_plural("%(num)s deal confirmed.", "%(num)s deals confirmed.", len(numbers))
        after_save(game_id)
    return redirect(_back(game_id), 303)


def stale(stored: StoredGame, number: int, deal_id: int, version: int, key: str | None = None):
    """The deal was corrected (or undone) since this phone saw it: what is recorded now, and,
    if it still waits, the tap that confirms it as it is now."""
    return meanwhile.stale_page(
        "confirm_stale.html", stored, number, deal_id, version, key, back=_back(stored.id)
    )


@bp.post("/iam")
def iam(game_id: int):
    """This phone says which player it is in the game (or forgets it)."""
    stored = fetch_game(game_id)
    form = SeatForm()
    value = request.form.get("seat", "")
    seat = form_int(value, digits=1) if value else None
    if not form.validate() or (value and (seat is None or seat > 3)):
        abort(400, _("Choose one of the game’s players."))
    fixed, was = _fixed_seat(stored)
    if fixed and seat != was:
        if was is None:
            flash_message(confirmations.SEAT_FIXED_NONE)
        else:
            flash_message(confirmations.SEAT_FIXED, names={"name": stored.game.players[was]})
        return redirect(_back(game_id), 303)
    phones.say_seat(game_id, seat)
    return redirect(_back(game_id), 303)


def _fixed_seat(stored: StoredGame) -> tuple[bool, int | None]:
    """Is this phone's "I am …" fixed in the game (it has entered or confirmed a deal there,
    and is not the game's admin), and the player it is then."""
    phone = phones.phone_id()
    if phone is None:
        return False, None
    done, seat = confirmations.recorded_seat(get_db(), stored.id, phone)
    if not done or phones.is_game_admin(stored):
        return False, None
    return done, seat


@bp.app_template_global()
def confirmation(stored: StoredGame, back: str | None = None) -> dict[str, Any] | None:
    """What the game page and the scoreboard show of confirmations: None when the game does
    not ask for them; else the deals waiting (each with who entered it, its version and that
    version's key, its scores, whether this phone entered it and whether it may confirm it),
    the player this phone is (the one it is fixed to, once it has entered or confirmed a deal
    there) and whether that can still change. Its forms lead back to *back*, else to the page
    they are on."""
    if not confirmations.is_on(stored.row):
        return None
    mine = phones.phone_id()
    fixed, seat = _fixed_seat(stored)
    if not fixed:
        seat = phones.said_seat(stored.id)
    names = stored.game.players
    partnership = stored.game.rules.partnership
    waiting = []
    for number in confirmations.waiting_numbers(stored.row, stored.deals):
        row = stored.deals[number - 1]
        by = row["entered_seat"]
        own = mine is not None and row["entered_by"] == mine
        team = partnership and (
            seat is None or (by is not None and Seat(by).team == Seat(seat).team)
        )
        waiting.append(
            {
                "number": number,
                "deal_id": row["id"],
                "version": row["version"],
                "version_key": row["version_key"],
                "title": present.deal_title(stored.game.deals[number - 1]),
                "scores": [row[f"score_{s}"] for s in range(4)],
                "entered_name": names[by] if by is not None else None,
                "mine": own,
                "may": not own and not team,
            }
        )
    here = back or request.full_path.rstrip("?")
    return {
        "seat": seat,
        "fixed": fixed,
        "waiting": waiting,
        "offered": [w for w in waiting if w["may"]],
        "partnership": partnership,
        "next": here,
    }
