"""Following a game from another phone: the read-only scoreboard, the QR code that opens it,
and a small state document that pages poll to refresh their scoreboard without a reload.
"""
from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from typing import Any, Iterable

import segno
from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from ...store.storage import StoredGame
from ..database import get_db
from ..hosting import public_root
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


def version_of(updated_at: str, deals: Iterable[tuple[int, int]]) -> str:
    """A short tag that changes with every write: the game's time stamp and each current deal's
    id and version (a new deal, a correction and an undo each change them). Two equal tags mean
    the same deals, so a page showing one is up to date with the other."""
    text = updated_at + ";" + ",".join(f"{i}:{v}" for i, v in deals)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def stored_version(stored: StoredGame) -> str:
    return version_of(stored.row["updated_at"], ((d["id"], d["version"]) for d in stored.deals))


def current_version(game_id: int) -> str | None:
    """The version of the stored game, read with two small queries, or None if there is none."""
    db = get_db()
    rows = list(db.query("select updated_at from games where id = ?", [game_id]))
    if not rows:
        return None
    deals = [(r["id"], r["version"]) for r in db.query(
        "select id, version from deals where game_id = ? order by number", [game_id])]
    return version_of(rows[0]["updated_at"], deals)


def live_attributes(stored: StoredGame) -> dict[str, Any]:
    """What a page that refreshes its scoreboard carries: where to ask, what it shows now."""
    return {"data-poll": url_for("live.state", game_id=stored.id),
            "data-version": stored_version(stored), "data-every": POLL_SECONDS}


@bp.get("/watch")
def watch(game_id: int):
    """Standings and the kingdom grid, without any way to enter or change a deal."""
    stored = fetch_game(game_id)
    return render_template("watch.html", **game_context(stored))


@bp.get("/state.json")
def state(game_id: int):
    """The game's version and standings; answered 304 without reading the game when unchanged."""
    version = current_version(game_id)
    if version is None:
        abort(404, _("There is no game %(number)s.", number=game_id))
    if request.if_none_match.contains(version):
        response = Response(status=304)
    else:
        context = game_context(fetch_game(game_id))
        nxt, scored = context["next"], context["scored"]
        response = jsonify(
            game=game_id, version=version, every=POLL_SECONDS, deals=len(context["game"].deals),
            over=scored.is_over,
            standings=[{"seat": r.seat, "name": r.name, "total": r.total, "rank": r.rank,
                        "winner": r.winner} for r in context["standings"]],
            next=None if nxt is None else {"number": nxt.number, "king": nxt.king})
    response.set_etag(version)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/qr.svg")
def qr(game_id: int):
    """A QR code of the read-only view's full address, drawn here (no script, no service)."""
    stored = fetch_game(game_id)
    response = Response(qr_svg(watch_url(stored, external=True), _("Scan to follow this game")),
                        mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()  # a phone that has it already gets 304
    return response.make_conditional(request)


@lru_cache(maxsize=256)
def qr_svg(url: str, title: str) -> bytes:
    """The QR code of *url* as SVG, drawn once per address and title: drawing it takes several
    times as long as the game page it sits on, and every load of that page asks for it."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", border=4, dark="#000", light="#fff", xmldecl=False, omitsize=True,
              title=title)
    return out.getvalue()


@bp.app_template_global()
def live(stored: StoredGame) -> dict[str, Any]:
    """``{{ live(stored)|xmlattr }}``: the attributes of a self-refreshing scoreboard."""
    return live_attributes(stored)


bp.add_app_template_global(watch_url)
