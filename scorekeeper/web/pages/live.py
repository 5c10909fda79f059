"""Following a game from another phone: the read-only scoreboard, the QR code that opens it,
and a small state document that pages poll to refresh their scoreboard without a reload.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from ...store.storage import StoredGame
from ..keeping import validators
from ..access.database import get_db
from ..access.hosting import public_root
from ..making.qrcodes import qr_svg
from .games import fetch_game, game_context

bp = Blueprint("live", __name__, url_prefix="/games/<int:game_id>")
#: How often a page asks whether the game changed, in seconds (the script reads it from the page).
POLL_SECONDS = 3


def watch_url(stored: StoredGame, *, external: bool = False) -> str:
    """The address of the game's read-only view: the one place where it is made.

    It is the game's view link, ``/v/<view key>`` (see pages/access.py), which leads to the watch
    page; it lets a phone watch and nothing more.
    """
    from ...store.keys import game_keys

    key = stored.row.get("view_key") or game_keys(get_db(), stored.id)["view_key"]
    path = url_for("access.view_link", key=key)
    return public_root() + path.lstrip("/") if external else path


def stored_version(stored: StoredGame) -> str:
    """The version of the game as *stored* was read: its version tag, drawn again by the
    database on every change of the game, its deals, its seats or its players' names
    (``store/schema.py``, ``m008_version_tags``). Two equal versions mean the same game."""
    return stored.row["version_tag"]


def current_version(game_id: int) -> str | None:
    """The version of the stored game, read with one query by its primary key, or None if
    there is none."""
    row = validators.version_row(game_id)
    return None if row is None else row[0]


def live_attributes(stored: StoredGame) -> dict[str, Any]:
    """What a page that refreshes its scoreboard carries: where to ask, what it shows now."""
    return {
        "data-poll": url_for("live.state", game_id=stored.id),
        "data-version": stored_version(stored),
        "data-every": POLL_SECONDS,
    }


@bp.get("/watch")
@validators.whole_page_cached("watch")
def watch(game_id: int):
    """Standings and the kingdom grid, without any way to enter or change a deal; answered 304,
    or from the page kept, while the game and this phone's way of reading are as they were."""
    return render_template("watch.html", **game_context(fetch_game(game_id)))


@bp.get("/state.json")
@validators.whole_page_cached("state", reader=False, cache_control="no-cache")
def state(game_id: int):
    """The game's version and standings; answered 304 without reading the game when unchanged.
    It holds no words of a language and no rights: its validator is the game's version."""
    stored = fetch_game(game_id)
    context = game_context(stored)
    nxt, scored = context["next"], context["scored"]
    return jsonify(
        game=game_id,
        version=stored_version(stored),
        every=POLL_SECONDS,
        deals=len(context["game"].deals),
        over=scored.is_over,
        standings=[
            {
                "seat": r.seat,
                "name": r.name,
                "total": r.total,
                "rank": r.rank,
                "winner": r.winner,
            }
            for r in context["standings"]
        ],
        next=None if nxt is None else {"number": nxt.number, "king": nxt.king},
    )


@bp.get("/qr.svg")
def qr(game_id: int):
    """A QR code of the read-only view's full address, drawn here (no script, no service)."""
    stored = fetch_game(game_id)
    response = Response(
        qr_svg(watch_url(stored, external=True), _("Scan to follow this game")),
        mimetype="image/svg+xml",
    )
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()  # a phone that has it already gets 304
    return response.make_conditional(request)


@bp.app_template_global()
def live(stored: StoredGame) -> dict[str, Any]:
    """``{{ live(stored)|xmlattr }}``: the attributes of a self-refreshing scoreboard."""
    return live_attributes(stored)


bp.add_app_template_global(watch_url)
