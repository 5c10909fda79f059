"""A club night's or a tournament's wall at its own secret link, ``/w/<wall key>``: for a
café's TV that is no member of the group. The link opens that wall, the state it polls and its
QR code, and nothing else: no other page of the group, no game, no rights (``web/groups.py``
lets it through by its key alone). The organiser sees the link and its QR code on the night's
or the tournament's page, and can make a new one: the old link then leads nowhere.

The wall itself is the club night's or the tournament's own wall view (``clubs.wall``,
``tournaments.wall``), called by its endpoint; opened by the wall link, it polls
``/w/<key>/state.json`` (``poll_url``) instead of the night's own state."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, g, redirect, request, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm

from ...store.keys import rotate_wall_key, wall_key, wall_of
from .. import rights
from ..database import get_db
from ..flashes import flash_words
from ..hosting import external_url
from ..qrcodes import qr_svg

bp = Blueprint("walls", __name__)

#: Each kind of wall: the page that shows it and its own page, the state it polls, and the
#: name of its id in those routes.
PAGES = {
    "club": ("clubs.wall", "clubs.show", "clubs.state", "club_id"),
    "tournament": ("tournaments.wall", "tournaments.show", "tournaments.state", "tournament_id"),
}


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
    """Does the address's key open a wall? (For ``web/groups.py``'s guard.)"""
    return wall_of(get_db(), str(values.get("key", ""))) is not None


def _call(kind: str, which: int, ident: int) -> Any:
    endpoint, arg = PAGES[kind][which], PAGES[kind][3]
    return current_app.view_functions[endpoint](**{arg: ident})


def poll_url(endpoint: str, **values: Any) -> str:
    """Where a page polls its state: at the wall link's own address when the wall was opened by
    it (a TV that is no member reaches nothing else), else at *endpoint*."""
    if request.endpoint in ("walls.wall", "walls.state"):
        return url_for("walls.state", key=(request.view_args or {})["key"])
    return url_for(endpoint, **values)


def wall_links(kind: str, ident: int) -> dict[str, str] | None:
    """For the organiser's page: the wall link, its QR code and where to post for a new one."""
    key = wall_key(get_db(), kind, ident)
    if key is None:
        return None
    return {
        "url": external_url("walls.wall", key=key),
        "qr": url_for("walls.qr", key=key),
        "rotate": url_for(f"walls.rotate_{kind}", **{PAGES[kind][3]: ident}),
    }


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
    return _private(current_app.make_response(_call(kind, 0, ident)))


@bp.get("/w/<key>/state.json")
def state(key: str):
    """What the wall opened by its link polls: the night's or the tournament's state."""
    kind, ident = _opened(key)
    return _call(kind, 2, ident)


@bp.get("/w/<key>/qr.svg")
def qr(key: str):
    """The wall link as a QR code, for the organiser's page."""
    _opened(key)
    response = Response(
        qr_svg(external_url("walls.wall", key=key), gettext("Scan to open the wall")),
        mimetype="image/svg+xml",
    )
    return _private(response)


def _rotate(kind: str, ident: int, may: bool) -> Response:
    if wall_key(get_db(), kind, ident) is None:
        abort(404, gettext("There is no such club night or tournament."))
    if not may:
        abort(403, gettext("Only the organiser can make a new wall link."))
    if not FlaskForm().validate():
        abort(400, gettext("This form is incomplete. Open the page again."))
    rotate_wall_key(get_db(), kind, ident)
    flash_words(lazy_gettext("A new wall link: the old one shows nothing now."))
    return redirect(url_for(PAGES[kind][1], **{PAGES[kind][3]: ident}) + "#wall-link", 303)


@bp.post("/clubs/<int:club_id>/wall-key")
def rotate_club(club_id: int):
    """A new wall link for the club night (its organiser only)."""
    return _rotate("club", club_id, rights.can_run_club(club_id))


@bp.post("/tournaments/<int:tournament_id>/wall-key")
def rotate_tournament(tournament_id: int):
    """A new wall link for the tournament (its organiser only)."""
    return _rotate("tournament", tournament_id, rights.can_run_tournament(tournament_id))
