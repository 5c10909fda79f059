"""What a club night's pages and a tournament's share (``pages/clubs.py``,
``pages/tournaments.py``, ``pages/walls.py``): the form's title, date and house rules; the
page and the wall that refresh themselves by polling a small state document (``state.json``,
answered 304 while the board's version is unchanged, ``store/boardversion.py``); the organiser's
rights, organiser link and wall link; and the next round of a tournament, seated in the write
that ends a match (``seating_after``), never by reading a page.

Each kind of board is declared once in :data:`KINDS`: its pages' endpoints, the name of its id
in their routes, its organiser link and who runs it."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from sqlite_utils import Database
from wtforms import StringField

from ...engine import HouseRules
from ...engine.gamefile import has_control
from ...store import boardversion, clubnights, stats, storage, tournaments
from ...store.keys import wall_key
from ...store.refused import Refused
from ..access import rights
from ..access.database import get_db
from .fields import PickField
from .forms import PRESET_LABELS, RulesForm, preset_settings, settings_data, tonight
from ..access.hosting import external_url
from .i18n import num
from .messages import refusal

#: How often a club night's or a tournament's page and wall ask whether a table changed, in
#: seconds (``static/live.js`` reads it from the page).
POLL_SECONDS = 3


@dataclass(frozen=True)
class Kind:
    """A kind of board: its pages' endpoints, its id's name in their routes, its organiser
    link's endpoint, its secret key (which binds the right to run it), who may run it, and what
    is said when there is none or this phone may not run it."""

    show: str
    wall: str
    state: str
    arg: str
    link: str
    key: Callable[[Database, int], str | None]
    may_run: Callable[[int], bool]
    missing: Any
    not_yours: Any
    incomplete: Any

    def values(self, ident: int) -> dict[str, int]:
        return {self.arg: ident}


KINDS = {
    "club": Kind(
        "clubs.show",
        "clubs.wall",
        "clubs.state",
        "club_id",
        "access.club_link",
        clubnights.club_key,
        rights.can_run_club,
        lazy_gettext("There is no such club night."),
        lazy_gettext(
            "Only the phone that started this club night, or one it gave the night’s "
            "organiser link to, can seat its rounds or take one back. Every phone can "
            "follow the night here."
        ),
        lazy_gettext("This form is incomplete. Open the club night again."),
    ),
    "tournament": Kind(
        "tournaments.show",
        "tournaments.wall",
        "tournaments.state",
        "tournament_id",
        "access.tournament_link",
        tournaments.tournament_key,
        rights.can_run_tournament,
        lazy_gettext("There is no such tournament."),
        lazy_gettext(
            "Only the tournament’s organiser reopens a round or seats the next one: the "
            "phone that started it, one that opened its organiser link, or the group’s "
            "admin."
        ),
        lazy_gettext("This form is incomplete. Open the tournament again."),
    ),
}


# -- starting one --------------------------------------------------------------------------------
def pick(label: Any, labels: dict[str, Any], default: str) -> PickField:
    """A field that picks one of *labels*' keys, each shown by its label."""
    return PickField(label, coerce=str, default=default, options=list(labels.items()))


class BoardForm(RulesForm):
    """New club night, New tournament: the title, the date and the house rules they share;
    each adds its players and how it is played."""

    title = StringField(lazy_gettext("Title"))
    played_on = StringField(lazy_gettext("Date"))
    preset = pick(lazy_gettext("House rules"), PRESET_LABELS, "standard")

    def check_board(self, title_limit: int) -> bool:
        """The title (at most *title_limit* characters, no control character) and the date,
        each refusal said under its field."""
        ok = True
        title = (self.title.data or "").strip()
        if len(title) > title_limit:
            self.title.errors.append(
                gettext("A title has at most %(most)s characters.", most=num(title_limit))
            )
            ok = False
        if has_control(title):
            self.title.errors.append(gettext("A title cannot hold control characters."))
            ok = False
        try:
            stats.parse_date(self.played_on.data)
        except ValueError:
            self.played_on.errors.append(gettext("Enter the date as on a calendar: 2026-11-24."))
            ok = False
        return ok

    def title_or(self, default: str) -> str:
        return (self.title.data or "").strip() or default

    def day(self) -> str:
        """The date entered, or tonight's."""
        return stats.parse_date(self.played_on.data) or tonight().isoformat()


def new_page(
    kind: str,
    form_class: type[BoardForm],
    create: Callable[[Any], int],
    *,
    refused: str,
    defaults: dict[str, Any],
    **shown: Any,
) -> tuple[str, int] | Response:
    """New club night, New tournament. Sent, the form is checked, then *create(form)* stores
    the board and grants this phone its running (its id), and the board's page follows; a
    refusal, the engine's or the store's (said under the field *refused*), gives the form back
    with the input kept (400). Opened, the form holds tonight, the standard rules and
    *defaults*. *shown*: what the template shows besides."""
    if request.method == "POST":
        form = form_class()
        if form.validate():
            try:
                ident = create(form)
            except Refused as exc:
                form[refused].errors.append(refusal(exc))
            else:
                return redirect(url_for(KINDS[kind].show, **KINDS[kind].values(ident)), 303)
        status = 400
    else:
        data = {"played_on": tonight().isoformat(), **settings_data(HouseRules()), **defaults}
        form, status = form_class(data=data), 200
    return render_template(
        f"{KINDS[kind].show.split('.')[0]}/new.html",
        form=form,
        presets=preset_settings(),
        known_names=storage.known_names(get_db()),
        **shown,
    ), status


# -- the page, the wall and the state they poll --------------------------------------------------
def add_views(
    bp: Blueprint,
    kind: str,
    fetch: Callable[[int], Any],
    context: Callable[[Any], dict[str, Any]],
    document: Callable[[Any, str], dict[str, Any]],
) -> None:
    """Give *bp* the board's wall view, ``<id>/wall`` (``<bp>.wall``: for a TV, read-only, the
    board as *context* says, refreshing itself), and the state it polls, ``<id>/state.json``
    (``<bp>.state``: the version and what *document* says of the board *fetch* reads; 304
    while the version is unchanged)."""
    arg = KINDS[kind].arg

    def wall(**values: int) -> str:
        return render_template(f"{bp.name}/wall.html", **context(fetch(values[arg])))

    def state_json(**values: int) -> Response:
        ident = values[arg]
        return state(kind, ident, lambda version: document(fetch(ident), version))

    bp.add_url_rule(f"/<int:{arg}>/wall", "wall", wall, methods=["GET"])
    bp.add_url_rule(f"/<int:{arg}>/state.json", "state", state_json, methods=["GET"])


def poll_url(kind: str, ident: int) -> str:
    """Where a page polls its state: at the wall link's own address when the wall was opened by
    it (a TV that is no member reaches nothing else), else at the board's own state."""
    if request.endpoint in ("walls.wall", "walls.state"):
        return url_for("walls.state", key=(request.view_args or {})["key"])
    return url_for(KINDS[kind].state, **KINDS[kind].values(ident))


def live_attrs(kind: str, ident: int, version: str | None) -> dict[str, Any]:
    """What a page or a wall that refreshes itself carries: where to ask, what it shows now."""
    return {"data-poll": poll_url(kind, ident), "data-version": version, "data-every": POLL_SECONDS}


def state(kind: str, ident: int, make: Callable[[str], dict[str, Any]]) -> Response:
    """The board's state document: 304 when the phone has its version (read with one query),
    else what *make* says for that version; 404 when there is no such board."""
    version = boardversion.version(get_db(), kind, ident)
    if version is None:
        abort(404, str(KINDS[kind].missing))
    return polled(version, lambda: {"every": POLL_SECONDS, **make(version)})


def polled(version: str, make: Callable[[], dict[str, Any]]) -> Response:
    """A state document that a page polls: 304 when the phone has *version*, else what *make*
    says, validated by its own ``version``."""
    if request.if_none_match.contains(version):
        response = Response(status=304)
    else:
        document = make()
        version = document["version"]
        response = jsonify(**document)
    response.set_etag(version)
    response.headers["Cache-Control"] = "no-cache"
    return response


# -- the organiser ---------------------------------------------------------------------------------
def organiser_links(kind: str, ident: int) -> dict[str, Any]:
    """For the phone that runs the board: the organiser link that gives another phone the same
    rights, and the wall link for a TV (both None for any other phone)."""
    if not KINDS[kind].may_run(ident):
        return {"organiser_link": None, "wall_link": None}
    key = KINDS[kind].key(get_db(), ident)
    return {
        "organiser_link": external_url(KINDS[kind].link, **KINDS[kind].values(ident), key=key),
        "wall_link": wall_links(kind, ident),
    }


def wall_links(kind: str, ident: int) -> dict[str, str] | None:
    """The wall link, its QR code and where to post for a new one."""
    key = wall_key(get_db(), kind, ident)
    if key is None:
        return None
    return {
        "url": external_url("walls.wall", key=key),
        "qr": url_for("walls.qr", key=key),
        "rotate": url_for(f"walls.rotate_{kind}", **KINDS[kind].values(ident)),
    }


def require_organiser(kind: str, ident: int, form: FlaskForm | None = None) -> None:
    """Refuse (403) a phone that does not run the board, then (400) a *form* that is not
    whole."""
    if not KINDS[kind].may_run(ident):
        abort(403, str(KINDS[kind].not_yours))
    if form is not None and not form.validate():
        abort(400, str(KINDS[kind].incomplete))


# -- a tournament's next round -----------------------------------------------------------------------
def table_titles() -> dict[str, str]:
    """The titles of a tournament's new tables' games, in this phone's language."""
    return {
        "table_title": gettext(tournaments.TABLE_TITLE),
        "game_title": gettext(tournaments.GAME_TITLE),
    }


@contextmanager
def seating_after(game_id: int) -> Iterator[None]:
    """``with seating_after(game_id): <a write of a deal of the game>``: one transaction that
    writes the deal (saved, corrected or confirmed) and, when the write ends a match, seats what
    is due, the next game of a best of three or the next round
    (``store.tournaments.seat_after``; one query for any other game). A refused write seats
    nothing; nothing is seated without the write."""
    db = get_db()
    with db.atomic():
        yield
        tournaments.seat_after(db, game_id, **table_titles())
