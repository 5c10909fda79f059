"""Who may change a game, and who may only watch it.

A phone may enter, correct or undo deals of a game when its (signed) session cookie says so. It
gets there in one of three ways: it started the game; it opened the game's secret edit link
``/e/<edit key>``; or it gave the table PIN chosen at New game. Any other phone may watch: the
pages that show a game are open, and the view link ``/v/<view key>`` (the one the QR code
carries) leads to them. Wrong PINs are counted in the database per game and per client address,
so that the limit holds across the server's threads and across restarts.

The session keeps, for each game it may change, the game's id and the first characters of its
edit key: the cookie's signature is what makes it trustworthy, and the key's characters bind the
right to that very game, so a restored backup or a database from elsewhere, where the same id is
another game, grants nothing.
"""
from __future__ import annotations

import hmac
import re
import time
from functools import wraps
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import (Blueprint, Flask, abort, current_app, g, redirect, render_template,
                   request, session, url_for)
from flask_babel import gettext as _, lazy_gettext, ngettext
from flask_wtf import FlaskForm
from sqlite_utils import Database
from werkzeug.security import check_password_hash, generate_password_hash
from wtforms import HiddenField, StringField

from ..store import storage
from ..store.db import RANDOM_KEY_SQL, get_db
from .flashes import flash_words

bp = Blueprint("access", __name__)

SESSION_KEY = "edit"
#: The games a phone remembers; the oldest is forgotten first (the cookie must stay small).
REMEMBERED_GAMES = 40
#: Characters of the edit key kept in the session to bind the right to the game.
KEY_TAG = 12
KEY = re.compile(r"[0-9a-f]{32}")
PIN = re.compile(r"[0-9]{4}")
#: At most this many PIN tries per game from one address in PIN_WINDOW seconds...
PIN_TRIES = 5
#: ...and from every address together (a phone can change its address on the Wi-Fi).
PIN_TRIES_PER_GAME = 20
PIN_WINDOW = 300.0


# -- the keys ------------------------------------------------------------------------------
def game_keys(db: Database, game_id: int) -> dict[str, Any] | None:
    """The game's edit key, view key and PIN hash; None when there is no such game.

    A game without keys (stored by a path that bypassed the insert trigger) gets them here.
    """
    sql = "select id, edit_key, view_key, pin_hash from games where id = ?"
    row = next(db.query(sql, [game_id]), None)
    if row is not None and (row["edit_key"] is None or row["view_key"] is None):
        with db.atomic():
            db.execute(f"update games set edit_key = coalesce(edit_key, {RANDOM_KEY_SQL}), "
                       f"view_key = coalesce(view_key, {RANDOM_KEY_SQL}) where id = ?",
                       [game_id])
        row = next(db.query(sql, [game_id]))
    return row


def pin_hash(pin: str) -> str:
    return generate_password_hash(pin)


def _game_by(column: str, key: str) -> dict[str, Any] | None:
    if not KEY.fullmatch(key):
        return None
    return next(get_db().query(f"select id, edit_key from games where {column} = ?", [key]),
                None)


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


# -- the pages -----------------------------------------------------------------------------
class PinForm(FlaskForm):
    pin = StringField(lazy_gettext("Table PIN"))
    next = HiddenField()


def _safe_next(game_id: int, target: str | None) -> str:
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


def _fetch(game_id: int) -> tuple[storage.StoredGame, dict[str, Any]]:
    db = get_db()
    stored = storage.load_game(db, game_id)
    keys = game_keys(db, game_id) if stored is not None else None
    if stored is None or keys is None:
        abort(404, _("There is no game %(number)s.", number=game_id))
    return stored, keys


def locked(game_id: int, *, form: PinForm | None = None, problem: str | None = None,
           status: int = 403, retry_after: int | None = None):
    """The page a watching phone sees where it tried to change something."""
    stored, keys = _fetch(game_id)
    if form is None:
        back = request.full_path.rstrip("?") if request.method == "GET" else None
        form = PinForm(formdata=None, data={"next": _safe_next(game_id, back)})
    response = current_app.make_response((render_template(
        "access/locked.html", stored=stored, form=form, has_pin=bool(keys["pin_hash"]),
        problem=problem), status))
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def _client() -> str:
    return request.remote_addr or "unknown"


def take_pin_try(db: Database, game_id: int, client: str) -> tuple[int, int | None]:
    """Count one PIN try unless too many were made: (0, the try's id), or (seconds to wait,
    None).

    The count and the new try are one write transaction, so that tries sent at the same moment
    on several threads cannot all slip under the limit.
    """
    now = time.time()
    since = now - PIN_WINDOW
    with db.atomic():
        db.execute("delete from pin_attempts where at < ?", [since])
        mine = [r["at"] for r in db.query(
            "select at from pin_attempts where game_id = ? and client = ? order by at",
            [game_id, client])]
        every = [r["at"] for r in db.query(
            "select at from pin_attempts where game_id = ? order by at", [game_id])]
        waits = [int(tries[-limit] + PIN_WINDOW - now) + 1
                 for tries, limit in ((mine, PIN_TRIES), (every, PIN_TRIES_PER_GAME))
                 if len(tries) >= limit]
        if waits:
            return max(waits), None
        return 0, db.table("pin_attempts").insert(
            {"game_id": game_id, "client": client, "at": now}).last_pk


def tries_left(db: Database, game_id: int, client: str) -> int:
    since = time.time() - PIN_WINDOW
    used = next(db.query("select count(*) as n from pin_attempts where game_id = ? and "
                         "client = ? and at >= ?", [game_id, client, since]))["n"]
    return max(0, PIN_TRIES - used)


def forget_try(db: Database, attempt: int | None) -> None:
    """A right PIN does not count against the limit."""
    with db.atomic():
        db.execute("delete from pin_attempts where id = ?", [attempt])


@bp.route("/games/<int:game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: int):
    """Give the table PIN to keep score on this phone."""
    stored, keys = _fetch(game_id)
    if request.method == "GET":
        target = _safe_next(game_id, request.args.get("next"))
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
    if PIN.fullmatch(pin) and check_password_hash(keys["pin_hash"], pin):
        forget_try(db, attempt)
        grant(game_id, keys["edit_key"])
        flash_words(lazy_gettext("This phone can keep score for this game now."))
        return redirect(_safe_next(game_id, form.next.data), 303)
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
    stored, keys = _fetch(game_id)
    response = current_app.make_response(render_template(
        "access/share.html", stored=stored, has_pin=bool(keys["pin_hash"]),
        edit_url=url_for("access.edit_link", key=keys["edit_key"], _external=True),
        view_url=url_for("access.view_link", key=keys["view_key"], _external=True),
        view_path=url_for("access.view_link", key=keys["view_key"])))
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    app.add_template_global(can_edit)
    app.register_blueprint(bp)
