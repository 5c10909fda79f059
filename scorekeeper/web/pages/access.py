"""The pages that give a phone rights, or take them back, or lead it to a game to watch: the
table PIN, the secret edit link ``/e/<key>``, the view link ``/v/<key>`` the QR code carries, the
share page (the game's Phones panel: both links, a new edit key, the PIN changed or removed), a club
night's organiser link ``/clubs/<id>/e/<key>``, and the install's admin link ``/admin/<key>`` and
join link ``/join/<key>``."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext, ngettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import ValidationError

from ...store.clubnights import club_key
from ...store.tournaments import tournament_key
from ...store.keys import (
    KEY,
    PIN_DIGITS,
    forget_try,
    game_keys,
    install_key_matches,
    pin_fits,
    pin_matches,
    rotate_edit_key,
    set_pin,
    take_pin_try,
    tries_left,
)
from ..access.database import get_db
from ..making.flashes import flash_words
from ..access.hosting import external_url
from ..making.i18n import num, speak_the_groups_language
from ..access.rights import (
    ADMIN_KEY,
    JOIN_KEY,
    PinForm,
    can_edit,
    client,
    edit_required,
    admit,
    fetch_with_keys,
    grant,
    grant_club,
    grant_tournament,
    grant_install,
    grant_watch,
    locked,
    pin_digits,
    safe_next,
)

bp = Blueprint("access", __name__)


def _game_by(column: str, key: str) -> dict[str, Any] | None:
    if not KEY.fullmatch(key):
        return None
    return next(get_db().query(f"select id, edit_key from games where {column} = ?", [key]), None)


def _private(response):
    """A page reached by a secret link: kept by no cache."""
    response.headers["Cache-Control"] = "no-store"
    return response


# -- the table PIN -------------------------------------------------------------------------
@bp.route("/games/<int:game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: int):
    """Give the table PIN to keep score on this phone."""
    stored, keys = fetch_with_keys(game_id)
    if request.method == "GET":
        target = safe_next(game_id, request.args.get("next"))
        if can_edit(game_id):
            return redirect(target, 303)
        return locked(game_id, status=200, form=PinForm(formdata=None, data={"next": target}))
    form = PinForm()
    if not keys["pin_hash"]:
        return locked(
            game_id,
            form=form,
            status=400,
            problem=_(
                "This game has no table PIN. Open its edit link on this phone instead: the phone "
                "that started the game can show it."
            ),
        )
    form.validate()
    pin = (form.pin.data or "").strip()
    db = get_db()
    lock, attempt = take_pin_try(db, game_id, client())
    if lock is not None:
        return locked(game_id, form=form, status=429, lock=lock)
    if pin_matches(keys["pin_hash"], pin):
        forget_try(db, attempt)
        grant(game_id, keys["edit_key"], by_pin=keys["pin_hash"])
        flash_words(lazy_gettext("This phone can keep score for this game now."))
        return redirect(safe_next(game_id, form.next.data), 303)
    left = tries_left(db, game_id, client())
    form.pin.data = ""
    return locked(
        game_id,
        form=form,
        status=400,
        problem=(
            _("That is not the table’s PIN.")
            + " "
            + (
                ngettext("%(num)s try left for now.", "%(num)s tries left for now.", left)
                if left
                else _("No tries left for a few minutes.")
            )
        ),
    )


# -- the links -----------------------------------------------------------------------------
@bp.get("/e/<key>")
def edit_link(key: str):
    """The secret edit link: this phone may keep score for the game from now on."""
    row = _game_by("edit_key", key)
    if row is None:
        abort(
            404,
            _(
                "This edit link does not lead to any game (a phone that keeps score may "
                "have made a new one). Ask for the game’s link again."
            ),
        )
    grant(row["id"], row["edit_key"])
    flash_words(lazy_gettext("This phone can keep score for this game now."))
    return _private(redirect(url_for("games.show", game_id=row["id"]), 303))


def watch_endpoint() -> str:
    """The read-only page of a game: the watch view where there is one, else the game page."""
    return "live.watch" if "live.watch" in current_app.view_functions else "games.show"


@bp.get("/v/<key>")
def view_link(key: str):
    """The read-only link (the QR code's): the game, to watch."""
    row = _game_by("view_key", key)
    if row is None:
        abort(404, _("This link does not lead to any game."))
    grant_watch(row["id"], key)
    return redirect(url_for(watch_endpoint(), game_id=row["id"]), 303)


def _is_key(key: str, known: str | None) -> bool:
    """Is *key* the organiser key *known* (None: there is no such club night or tournament)?"""
    return known is not None and KEY.fullmatch(key) is not None and hmac.compare_digest(known, key)


@bp.get("/clubs/<int:club_id>/e/<key>")
def club_link(club_id: int, key: str):
    """A club night's secret organiser link: this phone may seat its rounds from now on."""
    if not _is_key(key, club_key(get_db(), club_id)):
        abort(404, _("This organiser link does not lead to any club night."))
    grant_club(club_id)
    flash_words(lazy_gettext("This phone can seat the rounds of this club night now."))
    return _private(redirect(url_for("clubs.show", club_id=club_id), 303))


@bp.get("/tournaments/<int:tournament_id>/e/<key>")
def tournament_link(tournament_id: int, key: str):
    """A tournament's secret organiser link: this phone organises it from now on (it holds
    every match's table and hands out their links)."""
    if not _is_key(key, tournament_key(get_db(), tournament_id)):
        abort(404, _("This organiser link does not lead to any tournament."))
    grant_tournament(tournament_id)
    flash_words(lazy_gettext("This phone organises this tournament now."))
    return _private(redirect(url_for("tournaments.show", tournament_id=tournament_id), 303))


def view_url(game_id: int, *, external: bool = True) -> str | None:
    """The game's read-only link, ``/v/<view key>``: what a QR code at the table should carry."""
    keys = game_keys(get_db(), game_id)
    if keys is None:
        return None
    if external:
        return external_url("access.view_link", key=keys["view_key"])
    return url_for("access.view_link", key=keys["view_key"])


# -- the Phones panel: the links, and taking rights back ------------------------------------
class RotateForm(FlaskForm):
    """A new edit key (the form is its CSRF token alone)."""


def _check_pin(form: FlaskForm, field: StringField) -> None:
    field.data = (field.data or "").strip()
    if form.remove.data != "1" and not pin_fits(field.data, pin_digits()):
        raise ValidationError(pin_rule())


class PinChangeForm(FlaskForm):
    """Set a new table PIN, or (``remove`` = 1) take the PIN away."""

    pin = StringField(lazy_gettext("New table PIN"), [_check_pin])
    remove = HiddenField()


def pin_rule() -> str:
    """How many digits a table PIN has here, as a sentence."""
    low, high = pin_digits(), PIN_DIGITS[1]
    return _("A table PIN is %(low)s to %(high)s digits.", low=num(low), high=num(high))


def render_share(game_id: int, *, pin_form: PinChangeForm | None = None, status: int = 200):
    stored, keys = fetch_with_keys(game_id)
    return _private(
        current_app.make_response(
            (
                render_template(
                    "access/share.html",
                    stored=stored,
                    has_pin=bool(keys["pin_hash"]),
                    edit_url=external_url("access.edit_link", key=keys["edit_key"]),
                    view_url=external_url("access.view_link", key=keys["view_key"]),
                    view_path=url_for("access.view_link", key=keys["view_key"]),
                    rotate_form=RotateForm(formdata=None),
                    pin_form=pin_form or PinChangeForm(formdata=None),
                    pin_low=pin_digits(),
                    pin_high=PIN_DIGITS[1],
                ),
                status,
            )
        )
    )


@bp.get("/games/<int:game_id>/share")
@edit_required
def share(game_id: int):
    """For a phone that keeps score: the edit link for another scorekeeper, the view link, a new
    edit key, the PIN, and the names of this game's players."""
    return render_share(game_id)


@bp.post("/games/<int:game_id>/edit-key")
@edit_required
def rotate(game_id: int):
    """A new edit key: every other phone only watches from now on; this one keeps score."""
    fetch_with_keys(game_id)
    if not RotateForm().validate():
        abort(400, _("This form is incomplete. Open the Phones page again."))
    key = rotate_edit_key(get_db(), game_id)
    if key is None:
        abort(404, _("There is no game %(number)s.", number=num(game_id)))
    grant(game_id, key)
    flash_words(
        lazy_gettext(
            "A new edit link: every other phone only watches this game now. "
            "Give the new link to the phones that keep score."
        )
    )
    return redirect(url_for("access.share", game_id=game_id), 303)


@bp.post("/games/<int:game_id>/pin")
@edit_required
def change_pin(game_id: int):
    """Set a new table PIN, or remove it; phones the old PIN let in only watch from now on."""
    fetch_with_keys(game_id)
    form = PinChangeForm()
    if not form.validate():
        return render_share(game_id, pin_form=form, status=400)
    removing = form.remove.data == "1"
    set_pin(get_db(), game_id, None if removing else form.pin.data)
    flash_words(
        lazy_gettext("The table PIN is removed. Phones it let in only watch now.")
        if removing
        else lazy_gettext("The table PIN is changed. Phones the old one let in only watch now.")
    )
    return redirect(url_for("access.share", game_id=game_id), 303)


# -- the install's links -------------------------------------------------------------------
def _current_link(name: str, key: str) -> None:
    """Not found unless *key* is the install's current admin or join link (*name*)."""
    if install_key_matches(get_db(), name, key):
        return
    if name == ADMIN_KEY:
        abort(
            404,
            _(
                "This admin link is not (or no longer) this scorekeeper’s. Whoever runs "
                "it can print the current one."
            ),
        )
    abort(
        404,
        _(
            "This join link is not (or no longer) this scorekeeper’s. Ask the group "
            "for the current one."
        ),
    )


@bp.get("/admin/<key>")
def admin_link(key: str):
    """The group's admin link: this phone may rename, merge and delete players."""
    _current_link(ADMIN_KEY, key)
    grant_install(ADMIN_KEY, key)
    admit("admin")
    flash_words(lazy_gettext("This phone can rename, merge and delete players now."))
    return _private(redirect(url_for("players.roster"), 303))


@bp.get("/join/<key>")
def join_link(key: str):
    """The group's join link: on a hosted box, this phone may start and import games."""
    _current_link(JOIN_KEY, key)
    admit("join")
    flash_words(
        lazy_gettext(
            "This phone is in the group now: it sees the group’s games and can start its own."
        )
    )
    return speak_the_groups_language(_private(redirect(url_for("home.index"), 303)))
