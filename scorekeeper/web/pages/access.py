"""The pages that give a phone the right to keep score, or lead it to a game to watch: the
table PIN, the secret edit link ``/e/<key>``, the view link ``/v/<key>`` the QR code carries,
and the share page that shows both links."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext, ngettext

from ...store.keys import KEY, forget_try, game_keys, pin_matches, take_pin_try, tries_left
from ..database import get_db
from ..flashes import flash_words
from ..rights import PinForm, can_edit, fetch_with_keys, grant, locked, safe_next

bp = Blueprint("access", __name__)


def _game_by(column: str, key: str) -> dict[str, Any] | None:
    if not KEY.fullmatch(key):
        return None
    return next(get_db().query(f"select id, edit_key from games where {column} = ?", [key]),
                None)


def _client() -> str:
    return request.remote_addr or "unknown"


@bp.route("/games/<int:game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: int):
    """Give the table PIN to keep score on this phone."""
    stored, keys = fetch_with_keys(game_id)
    if request.method == "GET":
        target = safe_next(game_id, request.args.get("next"))
        if can_edit(game_id):
            return redirect(target, 303)
        return locked(game_id, status=200,
                      form=PinForm(formdata=None, data={"next": target}))
    form = PinForm()
    if not keys["pin_hash"]:
        return locked(game_id, form=form, status=400, problem=_(
            "This game has no table PIN. Open its edit link on this phone instead: the phone "
            "that started the game can show it."))
    form.validate()
    pin = (form.pin.data or "").strip()
    db = get_db()
    client = _client()
    wait, attempt = take_pin_try(db, game_id, client)
    if wait:
        minutes = -(-wait // 60)
        return locked(game_id, form=form, status=429, retry_after=wait, problem=ngettext(
            "Too many wrong PINs. Try again in %(num)s minute, or open the game’s edit link.",
            "Too many wrong PINs. Try again in %(num)s minutes, or open the game’s edit link.",
            minutes))
    if pin_matches(keys["pin_hash"], pin):
        forget_try(db, attempt)
        grant(game_id, keys["edit_key"])
        flash_words(lazy_gettext("This phone can keep score for this game now."))
        return redirect(safe_next(game_id, form.next.data), 303)
    left = tries_left(db, game_id, client)
    form.pin.data = ""
    return locked(game_id, form=form, status=400, problem=(
        _("That is not the table’s PIN (four digits).") + " "
        + (ngettext("%(num)s try left for now.", "%(num)s tries left for now.", left) if left
           else _("No tries left for a few minutes."))))


@bp.get("/e/<key>")
def edit_link(key: str):
    """The secret edit link: this phone may keep score for the game from now on."""
    row = _game_by("edit_key", key)
    if row is None:
        abort(404, _("This edit link does not lead to any game. Ask the phone that started "
                     "the game for its link again."))
    grant(row["id"], row["edit_key"])
    flash_words(lazy_gettext("This phone can keep score for this game now."))
    response = redirect(url_for("games.show", game_id=row["id"]), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


def watch_endpoint() -> str:
    """The read-only page of a game: the watch view where there is one, else the game page."""
    return "live.watch" if "live.watch" in current_app.view_functions else "games.show"


@bp.get("/v/<key>")
def view_link(key: str):
    """The read-only link (the QR code's): the game, to watch."""
    row = _game_by("view_key", key)
    if row is None:
        abort(404, _("This link does not lead to any game."))
    return redirect(url_for(watch_endpoint(), game_id=row["id"]), 303)


def view_url(game_id: int, *, external: bool = True) -> str | None:
    """The game's read-only link, ``/v/<view key>``: what a QR code at the table should carry."""
    keys = game_keys(get_db(), game_id)
    if keys is None:
        return None
    return url_for("access.view_link", key=keys["view_key"], _external=external)


@bp.get("/games/<int:game_id>/share")
def share(game_id: int):
    """For a phone that keeps score: the edit link for another scorekeeper, the view link."""
    if not can_edit(game_id):
        return locked(game_id)
    stored, keys = fetch_with_keys(game_id)
    response = current_app.make_response(render_template(
        "access/share.html", stored=stored, has_pin=bool(keys["pin_hash"]),
        edit_url=url_for("access.edit_link", key=keys["edit_key"], _external=True),
        view_url=url_for("access.view_link", key=keys["view_key"], _external=True),
        view_path=url_for("access.view_link", key=keys["view_key"])))
    response.headers["Cache-Control"] = "no-store"
    return response
