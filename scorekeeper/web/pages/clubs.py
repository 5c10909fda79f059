"""Club nights on the pages: start one, follow its tables, seat the next round, the wall view for
a TV, and the seating and final standings printed.

The store seats the players and keeps the rounds (``store.clubnights``); each table is an
ordinary game, entered on its own phone as any game is. The club night's page and its wall
view refresh themselves like the watch view: they poll a small state document whose version
changes with every write to one of the night's games.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_babel import format_date, gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, TextAreaField

from ...engine import ALL_CONTRACTS, HouseRules
from ...store import boardversion, clubnights, seating, storage
from ...store.refused import Refused
from ..making import boards, present
from ..access import rights
from ..access.database import get_db
from ..making.entrants import name_refusal
from ..making.fields import PickField, whole_number
from ..making.flashes import flash_words
from ..making.forms import tonight
from ..making.messages import contract_label, refusal
from ..keeping.printer import printed
from ..keeping.printouts import pdf_response, print_language, slug
from ..keeping.readysheets import sheet_digits
from ..making.rulestext import rules_text

bp = Blueprint("clubs", __name__, url_prefix="/clubs")
CLUB_TITLE_LIMIT = clubnights.TITLE_LIMIT
KINGDOMS = 4


# -- starting a club night -------------------------------------------------------------------
class ClubNightForm(boards.BoardForm):
    players = TextAreaField(lazy_gettext("One name a line"))
    rounds = PickField(
        lazy_gettext("Rounds"),
        coerce=whole_number,
        default=3,
        options=[(n, str(n)) for n in range(1, clubnights.MAX_ROUNDS + 1)],
    )
    first_round = PickField(
        lazy_gettext("The first round"),
        coerce=str,
        default="random",
        options=[("random", lazy_gettext("At random")), ("entered", lazy_gettext("As entered"))],
    )

    def names(self) -> list[str]:
        return [
            line
            for line in (storage.clean_name(t) for t in (self.players.data or "").splitlines())
            if line
        ]

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        ok = self.check_board(CLUB_TITLE_LIMIT) and ok
        names_ok = self.check_names()
        return self.check_rules() and names_ok and ok

    def check_names(self) -> bool:
        problem = name_refusal(self.names())
        if problem is not None:
            self.players.errors.append(problem)
        return problem is None


@bp.route("/new", methods=["GET", "POST"])
@rights.join_required
def new():
    """The night's players (8 to 32), its rounds, how the first round is seated, the rules."""

    def create(form: ClubNightForm) -> int:
        club_id = clubnights.create(
            get_db(),
            title=form.title_or(gettext("Club night")),
            night=form.day(),
            names=form.names(),
            rounds=form.rounds.data,
            rules=form.rules,
            seed=secrets.randbelow(2**31) if form.first_round.data == "random" else None,
            table_title=gettext(clubnights.TABLE_TITLE),
        )
        rights.grant_club(club_id)
        _grant_round(clubnights.load(get_db(), club_id), 1)
        return club_id

    return boards.new_page(
        "club",
        ClubNightForm,
        create,
        refused="players",
        defaults={"title": gettext("%(day)s club night", day=_weekday(tonight()))},
        least=seating.MIN_PLAYERS,
        most=seating.MAX_PLAYERS,
        title_limit=CLUB_TITLE_LIMIT,
    )


def _weekday(day: dt.date) -> str:
    return format_date(day, "EEEE")


def _grant_round(club: clubnights.ClubNight | None, number: int) -> None:
    """The phone that seats a round keeps the score of its tables (it hands them out)."""
    if club is None:
        return
    for round_ in club.rounds:
        if round_.number == number:
            for table in round_.tables:
                rights.grant_game(table.game_id)


# -- the club night --------------------------------------------------------------------------
def fetch_club(club_id: int) -> clubnights.ClubNight:
    club = clubnights.load(get_db(), club_id)
    if club is None:
        abort(404, str(boards.KINDS["club"].missing))
    return club


def table_progress(table: clubnights.Table) -> dict[str, Any]:
    """Where a table's game stands: its deal, kingdom, King and the contracts left, or its
    winners when it is over."""
    stored = storage.load_game(get_db(), table.game_id)
    game = stored.game  # type: ignore[union-attr]
    progress = game.progress()
    scored = game.score()
    nxt = present.next_deal(game, progress)
    kingdom = len(progress.kingdoms) + (0 if progress.current is not None else 1)
    return {
        "number": table.number,
        "game_id": table.game_id,
        "names": game.players,
        "deals": len(game.deals),
        "over": scored.is_over,
        "winners": [game.players[s] for s in scored.winners] if scored.is_over else [],
        "kingdom": min(kingdom, KINGDOMS),
        "total": deals_planned(game.rules, progress),
        "king": None if nxt is None or nxt.king is None else game.players[nxt.king],
        "next": None if nxt is None else nxt.number,
        "left": [] if nxt is None else [contract_label(c) for c in nxt.left],
        "standings": present.standings(game.players, scored),
        "mine": rights.can_edit(table.game_id),  # this phone hands out the table's links
    }


def deals_planned(rules: HouseRules, progress: Any) -> int | None:
    """How many deals the game will have, counting those thrown in so far: 20 with one contract
    a deal, 8 in Complex, more after a redeal. None when the table combines contracts as it
    likes (the count depends on its choices)."""
    if rules.combining == "combination":
        return None
    current = progress.current
    left = current.contracts_left if current is not None else ()
    future = KINGDOMS - len(progress.kingdoms)
    if rules.combining == "none":
        per_kingdom, now = len(ALL_CONTRACTS), len(left)
    else:  # Complex: the negatives in one deal, then the Trex
        per_kingdom = 2
        now = int(any(c.is_negative for c in left)) + int(any(not c.is_negative for c in left))
    return progress.count + now + future * per_kingdom


def club_context(club: clubnights.ClubNight) -> dict[str, Any]:
    current = club.current
    return {
        "club": club,
        "current": current,
        "tables": [table_progress(t) for t in current.tables] if current else [],
        "rows": clubnights.night_standings(get_db(), club.game_ids, players=club.players),
        "champion_rule": clubnights.CHAMPION_RULE,
        "live_attrs": boards.live_attrs(
            "club", club.id, boardversion.version(get_db(), "club", club.id)
        ),
        "rules_line": _capital(rules_text(json.dumps(club.rules.to_dict()))),
        **organiser_context(club),
    }


def organiser_context(club: clubnights.ClubNight) -> dict[str, Any]:
    """What the phone that runs the night sees besides: whether it may seat the next round or
    take the last back (only while none of its tables has a deal), and the organiser link that
    gives another phone the same rights, and the wall link for a TV."""
    mine = rights.can_run_club(club.id)
    current = club.current
    return {
        "can_seat": mine,
        "can_undo": mine
        and current is not None
        and current.number > 1
        and not any(t.deal_count for t in current.tables),
        **boards.organiser_links("club", club.id),
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class RoundForm(FlaskForm):
    """Seat the next round; *anyway* when tables of the last one are still playing."""

    anyway = HiddenField()


@bp.get("/<int:club_id>")
def show(club_id: int):
    """Every table's progress, who sits out, the standings across the tables, the next round."""
    club = fetch_club(club_id)
    return render_template(
        "clubs/show.html", form=RoundForm(formdata=None), problem=None, **club_context(club)
    )


@bp.post("/<int:club_id>/rounds")
def next_round(club_id: int):
    """Seat the next round by the standings; while tables still play, only when asked to."""
    club = fetch_club(club_id)
    form = RoundForm()
    boards.require_organiser("club", club_id, form)
    try:
        number = clubnights.next_round(
            get_db(),
            club_id,
            even_if_playing=form.anyway.data == "1",
            table_title=gettext(clubnights.TABLE_TITLE),
        )
    except Refused as exc:
        playing = bool(
            club.current and not club.current.finished and len(club.rounds) < club.rounds_planned
        )
        return render_template(
            "clubs/show.html",
            form=RoundForm(formdata=None),
            problem=refusal(exc),
            offer_anyway=playing,
            **club_context(club),
        ), 409
    _grant_round(clubnights.load(get_db(), club_id), number)
    return redirect(url_for("clubs.show", club_id=club_id) + f"#round-{number}", 303)


@bp.post("/<int:club_id>/rounds/<int:number>/undo")
def undo_round(club_id: int, number: int):
    """Take back the last round, seated by mistake, while none of its tables has a deal."""
    club = fetch_club(club_id)
    boards.require_organiser("club", club_id, RoundForm())
    try:
        clubnights.undo_round(get_db(), club_id, number)
    except Refused as exc:
        return render_template(
            "clubs/show.html",
            form=RoundForm(formdata=None),
            problem=refusal(exc),
            **club_context(club),
        ), 409
    flash_words(lazy_gettext("Round %(number)s was taken back.", number=number))
    return redirect(url_for("clubs.show", club_id=club_id), 303)


def night_state(club: clubnights.ClubNight, version: str) -> dict[str, Any]:
    """What the night's page and wall poll: the round, where each table stands, the standings."""
    current = club.current
    tables = current.tables if current else ()
    rows = clubnights.night_standings(get_db(), club.game_ids, players=club.players)
    return dict(
        club=club.id,
        version=version,
        round=current.number if current else 0,
        rounds=club.rounds_planned,
        tables=[
            dict(table=t.number, game=t.game_id, deals=t.deal_count, finished=t.finished)
            for t in tables
        ],
        standings=[{k: r[k] for k in ("name", "place", "wins", "points")} for r in rows],
    )


# For a TV or a laptop on the wall, the tables and the standings, large, read-only; and the
# night's version and where each table stands, that it polls.
boards.add_views(bp, "club", fetch_club, club_context, night_state)


# -- printed ----------------------------------------------------------------------------------
def _slug(text: str) -> str:
    return slug(text) or "club-night"


@bp.get("/<int:club_id>/rounds/<int:number>/seating.pdf")
def seating_pdf(club_id: int, number: int):
    """One round's seating on one page: each table's four in seat order, who sits out."""
    club = fetch_club(club_id)
    round_ = next((r for r in club.rounds if r.number == number), None)
    if round_ is None:
        abort(404, gettext("This round is not seated yet."))
    data = printed(
        "seating",
        "seating_pdf",
        title=club.title,
        night=club.night,
        round_number=number,
        rounds=club.rounds_planned,
        tables=[list(t.players) for t in round_.tables],
        sitting_out=list(round_.sitting_out),
        partnership=club.partnership,
        lang=print_language(),
        digits=sheet_digits(),
    )
    return pdf_response(data, f"{_slug(club.title)}-round-{number}.pdf")


@bp.get("/<int:club_id>/standings.pdf")
def standings_pdf(club_id: int):
    """The night's standings across every table on one page, with its champion."""
    club = fetch_club(club_id)
    data = printed(
        "standings",
        "standings_pdf",
        title=club.title,
        night=club.night,
        rounds_played=len(club.rounds),
        rounds=club.rounds_planned,
        over=club.is_over,
        rows=clubnights.night_standings(get_db(), club.game_ids, players=club.players),
        rule=clubnights.CHAMPION_RULE,
        lang=print_language(),
        digits=sheet_digits(),
    )
    return pdf_response(data, f"{_slug(club.title)}-standings.pdf")


@bp.app_template_global()
def club_nights() -> list[dict[str, Any]]:
    """The latest club nights, for the home page and Past nights."""
    return clubnights.list_nights(get_db(), limit=5)
