"""Who may change a game, and who may only watch it: the rights a phone holds in its session.

A phone may enter, correct or undo deals of a game when its (signed) session cookie says so. It
gets there in one of three ways: it started the game; it opened the game's secret edit link
``/e/<edit key>``; or it gave the table PIN chosen at New game. Any other phone may watch: the
pages that show a game are open, and the view link ``/v/<view key>`` (the one the QR code
carries) leads to them. The pages that give rights are ``pages/access.py``; the keys and the
counted PIN tries are the store's (``store/keys.py``).

The session keeps, for each game it may change, the game's id and the first characters of its
edit key: the cookie's signature is what makes it trustworthy, and the key's characters bind the
right to that very game, so a restored backup or a database from elsewhere, where the same id is
another game, grants nothing.
"""
from __future__ import annotations

import hmac
from functools import wraps
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from sqlite_utils import Database
from wtforms import HiddenField, StringField

from ..store import storage
from ..store.keys import game_keys
from .database import get_db

SESSION_KEY = "edit"
#: The games a phone remembers; the oldest is forgotten first (the cookie must stay small).
REMEMBERED_GAMES = 40
#: Characters of the edit key kept in the session to bind the right to the game.
KEY_TAG = 12


# -- the keys ------------------------------------------------------------------------------
# -- the session's rights ------------------------------------------------------------------
def _rights() -> list[list[Any]]:
    value = session.get(SESSION_KEY)
    return [r for r in value if isinstance(r, list) and len(r) == 2] \
        if isinstance(value, list) else []


def can_edit(game_id: int) -> bool:
    """May this phone change the game? (Cached for the request.)"""
    cache = g.setdefault("edit_rights", {})
    if game_id not in cache:
        tag = next((t for i, t in _rights() if i == game_id), None)
        keys = game_keys(get_db(), game_id) if isinstance(tag, str) else None
        cache[game_id] = keys is not None and hmac.compare_digest(
            tag.encode(), keys["edit_key"][:KEY_TAG].encode())
    return cache[game_id]


def grant(game_id: int, edit_key: str) -> None:
    """Let this phone change the game from now on."""
    rights = [r for r in _rights() if r[0] != game_id]
    rights.append([game_id, edit_key[:KEY_TAG]])
    session[SESSION_KEY] = rights[-REMEMBERED_GAMES:]
    session.permanent = True
    g.setdefault("edit_rights", {})[game_id] = True


def grant_game(game_id: int) -> None:
    keys = game_keys(get_db(), game_id)
    if keys is not None:
        grant(game_id, keys["edit_key"])


def edit_required(view: Callable) -> Callable:
    """The view changes the game ``game_id``: without the right, the locked page (403)."""
    @wraps(view)
    def guarded(*args: Any, **kwargs: Any):
        if not can_edit(kwargs["game_id"]):
            return locked(kwargs["game_id"])
        return view(*args, **kwargs)
    return guarded


def may_edit_player(db: Database, player_id: int) -> bool:
    """May this phone change a player (rename, merge)? Only with the right to one of their
    games: a name is part of every scoresheet it is on."""
    games = [r["game_id"] for r in db.query(
        "select game_id from game_players where player_id = ?", [player_id])]
    return any(can_edit(game_id) for game_id in games)


def require_player_rights(db: Database, *player_ids: int) -> None:
    for player_id in player_ids:
        if not may_edit_player(db, player_id):
            abort(403, _("Only a phone that keeps score in one of this player’s games can "
                         "rename or merge them. Open that game’s edit link, or give its table "
                         "PIN, first."))


# -- the page a watching phone gets -------------------------------------------------------
class PinForm(FlaskForm):
    pin = StringField(lazy_gettext("Table PIN"))
    next = HiddenField()


def safe_next(game_id: int, target: str | None) -> str:
    """Where to go after the PIN: a page of this game on this site, else the game page."""
    game_page = url_for("games.show", game_id=game_id)
    if not target:
        return game_page
    parts = urlsplit(target)
    path = parts.path
    if (parts.scheme or parts.netloc or "\\" in target or any(ord(c) < 32 for c in target)
            or "." in path.split("/") or ".." in path.split("/")
            or not (path == game_page or path.startswith(game_page + "/"))):
        return game_page
    return target


def fetch_with_keys(game_id: int) -> tuple[storage.StoredGame, dict[str, Any]]:
    db = get_db()
    stored = storage.load_game(db, game_id)
    keys = game_keys(db, game_id) if stored is not None else None
    if stored is None or keys is None:
        abort(404, _("There is no game %(number)s.", number=game_id))
    return stored, keys


def locked(game_id: int, *, form: PinForm | None = None, problem: str | None = None,
           status: int = 403, retry_after: int | None = None):
    """The page a watching phone sees where it tried to change something."""
    stored, keys = fetch_with_keys(game_id)
    if form is None:
        back = request.full_path.rstrip("?") if request.method == "GET" else None
        form = PinForm(formdata=None, data={"next": safe_next(game_id, back)})
    response = current_app.make_response((render_template(
        "access/locked.html", stored=stored, form=form, has_pin=bool(keys["pin_hash"]),
        problem=problem), status))
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def init_app(app: Flask) -> None:
    app.add_template_global(can_edit)
