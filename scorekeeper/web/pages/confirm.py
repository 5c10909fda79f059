"""Confirmation by the other side: "I am …" and the one tap that confirms a deal.

Any phone that may follow the game (the game page, or the scoreboard its view link opens)
says which player it is and confirms the deals the other side entered; the store decides
whether it may (``store/confirmations.py``). Both posts carry the form's CSRF token; a
confirmation names the deal's id and the version the phone saw, so the same tap sent twice
records one confirmation, and a deal corrected meanwhile gets the "changed meanwhile" page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import HiddenField

from ...store import confirmations, confirming, storage
from ...store.confirming import AlreadyConfirmed
from ...store.refused import Refused
from ...store.storage import StoredGame
from .. import meanwhile, phones, present
from ..database import get_db
from ..fields import form_int
from ..flashes import flash_message
from ..readysheets import after_save
from ..rights import safe_next
from .games import fetch_game

bp = Blueprint("confirm", __name__, url_prefix="/games/<int:game_id>")


class ConfirmForm(FlaskForm):
    """One tap: the deal's id and the version the phone saw; where to go back to."""

    deal_id = HiddenField()
    version = HiddenField()
    next = HiddenField()


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
        confirming.confirm(
            get_db(),
            game_id,
            number,
            version=version,
            deal_id=deal_id,
            by=phones.current(stored),
        )
    except AlreadyConfirmed:
        flash_message(
            "Deal %(number)s was confirmed already: nothing was recorded twice.", number=number
        )
    except storage.Conflict:
        return stale(fetch_game(game_id), number, deal_id, version)
    except storage.NotFound:
        abort(404, _("This game has no deal %(number)s.", number=number))
    except Refused as exc:
        flash_message(exc.message, names=exc.names, **exc.values)
    else:
        flash_message("Deal %(number)s confirmed.", number=number)
        after_save(game_id)  # the printed sheet, made ready again without the mark
    return redirect(_back(game_id), 303)


def stale(stored: StoredGame, number: int, deal_id: int, version: int):
    """The deal was corrected (or undone) since this phone saw it: what is recorded now, and,
    if it still waits, the tap that confirms it as it is now."""
    now = meanwhile.changed_deal(get_db(), stored, number, deal_id, version)
    return render_template(
        "confirm_stale.html",
        stored=stored,
        number=number,
        meanwhile=now,
        names=stored.game.players,
        back=_back(stored.id),
    ), 409


@bp.post("/iam")
def iam(game_id: int):
    """This phone says which player it is in the game (or forgets it)."""
    fetch_game(game_id)
    form = SeatForm()
    value = request.form.get("seat", "")
    seat = form_int(value, digits=1) if value else None
    if not form.validate() or (value and (seat is None or seat > 3)):
        abort(400, _("Choose one of the game’s players."))
    phones.say_seat(game_id, seat)
    return redirect(_back(game_id), 303)


@bp.app_template_global()
def confirmation(stored: StoredGame, back: str | None = None) -> dict[str, Any] | None:
    """What the game page and the scoreboard show of confirmations: None when the game does
    not ask for them; else the deals waiting (each with who entered it and whether this phone
    entered it), and the player this phone said it is. Its forms lead back to *back*, else to
    the page they are on."""
    if not confirmations.is_on(stored.row):
        return None
    mine, seat = phones.phone_id(), phones.said_seat(stored.id)
    names = stored.game.players
    waiting = []
    for number in confirmations.waiting_numbers(stored.row, stored.deals):
        row = stored.deals[number - 1]
        by = row["entered_seat"]
        waiting.append(
            {
                "number": number,
                "deal_id": row["id"],
                "version": row["version"],
                "title": present.deal_title(stored.game.deals[number - 1]),
                "entered_name": names[by] if by is not None else None,
                "mine": mine is not None and row["entered_by"] == mine,
            }
        )
    here = back or request.full_path.rstrip("?")
    return {
        "seat": seat,
        "waiting": waiting,
        "partnership": stored.game.rules.partnership,
        "next": here,
    }
