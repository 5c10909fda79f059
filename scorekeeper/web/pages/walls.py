"""A club night's or a tournament's wall at its own secret link, ``/w/<wall key>``: for a
café's TV that is no member of the group. The link opens that wall, the state it polls and its
QR code, and nothing else: no other page of the group, no game, no rights (``web/groupsite.py``
lets it through by its key alone). The organiser sees the link and its QR code on the night's
or the tournament's page, and can make a new one: the old link then leads nowhere.

The wall itself is the club night's or the tournament's own wall view (``clubs.wall``,
``tournaments.wall``), called by its endpoint (``web/making/boards.py`` declares them); opened by the
wall link, it polls ``/w/<key>/state.json`` (``boards.poll_url``) instead of the night's own
state."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, g, redirect, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm

from ...store.keys import rotate_wall_key, wall_key, wall_of
from ..making.boards import KINDS
from ..access.database import get_db
from ..making.flashes import flash_words
from ..access.hosting import external_url
from ..making.qrcodes import qr_svg

bp = Blueprint("walls", __name__)


def _opened(key: str) -> tuple[str, int]:
    found = wall_of(get_db(), key)
    if found is None:
        abort(
            404,
            gettext(
                "This wall link does not lead to any club night or tournament (the organiser "
                "may have made a new one). Ask the organiser for the current one."
            ),
        )
    return found


def wall_opens(values: dict[str, Any]) -> bool:
    """Does the address's key open a wall? (For ``web/groupsite.py``'s guard.)"""
    return wall_of(get_db(), str(values.get("key", ""))) is not None


def _call(endpoint: str, kind: str, ident: int) -> Any:
    """The board's own view at *endpoint* (its wall, or the state the wall polls)."""
    return current_app.view_functions[endpoint](**KINDS[kind].values(ident))


def _private(response: Response) -> Response:
    """A page reached by a secret link: kept by no cache, and no address sent on from it."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/w/<key>")
def wall(key: str):
    """The wall, read-only and refreshing itself, for a TV that is no member of the group."""
    kind, ident = _opened(key)
    g.wall_shown = True  # the header's language link comes back here
    return _private(current_app.make_response(_call(KINDS[kind].wall, kind, ident)))


@bp.get("/w/<key>/state.json")
def state(key: str):
    """What the wall opened by its link polls: the night's or the tournament's state."""
    kind, ident = _opened(key)
    return _call(KINDS[kind].state, kind, ident)


@bp.get("/w/<key>/qr.svg")
def qr(key: str):
    """The wall link as a QR code, for the organiser's page."""
    _opened(key)
    response = Response(
        qr_svg(external_url("walls.wall", key=key), gettext("Scan to open the wall")),
        mimetype="image/svg+xml",
    )
    return _private(response)


def _rotate(kind: str, ident: int) -> Response:
    if wall_key(get_db(), kind, ident) is None:
        abort(404, gettext("There is no such club night or tournament."))
    if not KINDS[kind].may_run(ident):
        abort(403, gettext("Only the organiser can make a new wall link."))
    if not FlaskForm().validate():
        abort(400, gettext("This form is incomplete. Open the page again."))
    rotate_wall_key(get_db(), kind, ident)
    flash_words(lazy_gettext("A new wall link: the old one shows nothing now."))
    return redirect(url_for(KINDS[kind].show, **KINDS[kind].values(ident)) + "#wall-link", 303)


@bp.post("/clubs/<int:club_id>/wall-key")
def rotate_club(club_id: int):
    """A new wall link for the club night (its organiser only)."""
    return _rotate("club", club_id)


@bp.post("/tournaments/<int:tournament_id>/wall-key")
def rotate_tournament(tournament_id: int):
    """A new wall link for the tournament (its organiser only)."""
    return _rotate("tournament", tournament_id)
