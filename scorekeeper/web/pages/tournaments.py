"""Knockout tournaments on the pages: start one, follow its bracket (and on a TV, its wall
view), and print it on one page.

The engine draws the bracket and says who goes through (``engine.bracket``); the store keeps
the entrants and each round's tables, and seats the next round when the last match of a round
ends (``store.tournaments.advance``, run in the write that ends the round's last match, or on
the organiser's request; reading the bracket never seats anything). Each match's table is an ordinary game, entered on its own phone as a club
night's table is: the organiser's phone holds its score and hands out its edit link, PIN and QR
code (``pages/access.py``). The bracket page and the wall view refresh themselves as the club
night's do (``static/live.js`` polling ``state.json``).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, TextAreaField

from ...engine import HouseRules, bracket
from ...store import reopening, tournaments
from ...store.refused import Refused
from ..making import boards
from ..access import rights
from ..access.database import get_db
from ..making.entrants import name_refusal
from ..making.fields import PickField, whole_number
from ..making.flashes import flash_words
from ..making.i18n import num
from ..making.messages import refusal
from ..keeping.printer import printed
from ..keeping.printouts import pdf_response, print_language, slug
from ..keeping.readysheets import sheet_digits
from ..making.rulestext import rules_text

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")

FORMAT_LABELS = {
    "top-two": lazy_gettext("Players: the top two of each table of four go through"),
    "pairings": lazy_gettext("Players: two pairings a table, the better of each goes through"),
    "pairs": lazy_gettext("Pairs under partnership: the winning pair goes through"),
}
#: What the pages say of each thing a bracket holds that cannot be (``bracket.check``).
PROBLEM_TEXT = {
    "twice": lazy_gettext("%(name)s is in the bracket twice (round %(round)s)."),
    "not_through": lazy_gettext(
        "%(name)s is seated in round %(round)s without having gone through."
    ),
    "not_seated": lazy_gettext("%(name)s went through but is not seated in round %(round)s."),
    "undecided": lazy_gettext(
        "Round %(next)s is seated while table %(table)s of round %(round)s has no result."
    ),
    "after_final": lazy_gettext("Round %(round)s is seated after the final."),
    "table": lazy_gettext(
        "Table %(table)s of round %(round)s does not seat its entrants as the format says."
    ),
    "seat": lazy_gettext(
        "A game of table %(table)s of round %(round)s seats another player than the bracket."
    ),
}
SEEDING_LABELS = {
    "random": lazy_gettext("At random"),
    "rating": lazy_gettext("By rating"),
    "entered": lazy_gettext("As entered"),
}


class TournamentForm(boards.BoardForm):
    entrants = TextAreaField(lazy_gettext("One entrant a line"))
    format = boards.pick(lazy_gettext("Each match"), FORMAT_LABELS, "top-two")
    seeding = boards.pick(lazy_gettext("Seeding"), SEEDING_LABELS, "random")
    best_of = PickField(
        lazy_gettext("Games a match"),
        coerce=whole_number,
        default=1,
        options=[(1, lazy_gettext("One game")), (3, lazy_gettext("The best of three (pairs)"))],
    )
    confirm = BooleanField(lazy_gettext("The other side confirms each deal"))
    parsed: list[tuple[str, ...]] = []

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        ok = self.check_board(tournaments.TITLE_LIMIT) and ok
        for field, missing in (
            (self.format, lazy_gettext("Choose how each match is played.")),
            (self.seeding, lazy_gettext("Choose how the entrants are seeded.")),
        ):
            if field.data is None and not field.errors:  # left out, or sent empty
                field.errors.append(str(missing))
                ok = False
        rules_ok = self.check_rules()
        if rules_ok and self.format.data is not None and self.rules is not None:
            if (self.format.data == "pairs") != self.rules.partnership:
                self.format.errors.append(
                    gettext(
                        "Pairs play under partnership, and only pairs do: choose both or neither."
                    )
                )
                ok = False
        if self.best_of.data is not None and bracket.best_of_problem(
            self.format.data or "", self.best_of.data
        ):
            self.best_of.errors.append(gettext(tournaments.BEST_OF_REFUSAL))
            ok = False
        return self.check_entrants() and rules_ok and ok

    def check_entrants(self) -> bool:
        lines = (self.entrants.data or "").splitlines()
        try:
            self.parsed = tournaments.parse_entrants(lines, self.format.data or "top-two")
        except Refused as exc:
            self.entrants.errors.append(refusal(exc))
            return False
        problem = name_refusal([n for e in self.parsed for n in e])
        if problem is not None:
            self.entrants.errors.append(problem)
        return problem is None


@bp.route("/new", methods=["GET", "POST"])
@rights.join_required
def new():
    """The entrants (players or pairs), how a match is played, the seeding and the rules."""

    def create(form: TournamentForm) -> int:
        tournament_id = tournaments.create(
            get_db(),
            title=form.title_or(gettext("Tournament")),
            played_on=form.day(),
            entrants=form.parsed,
            fmt=form.format.data,
            seeding=form.seeding.data,
            rules=form.rules,  # type: ignore[arg-type]
            seed=secrets.randbelow(2**31),
            best_of=form.best_of.data or 1,
            confirm=bool(form.confirm.data),
            table_title=gettext(tournaments.TABLE_TITLE),
        )
        rights.grant_tournament(tournament_id)
        _grant_tables(fetch_tournament(tournament_id))
        return tournament_id

    return boards.new_page(
        "tournament",
        TournamentForm,
        create,
        refused="entrants",
        defaults={"title": gettext("Tournament"), "confirm": True},
        least=bracket.MIN_PLAYERS,
        least_pairs=bracket.MIN_PAIRS,
        most=bracket.MOST,
        title_limit=tournaments.TITLE_LIMIT,
    )


def _grant_tables(tournament: tournaments.Tournament) -> None:
    """The organiser's phone keeps the score of every match's table (it hands them out)."""
    if not rights.can_run_tournament(tournament.id):
        return
    for game_id in tournament.game_ids:
        if not rights.can_edit(game_id):
            rights.grant_game(game_id)


# -- the bracket -----------------------------------------------------------------------------
def fetch_tournament(tournament_id: int) -> tournaments.Tournament:
    """The tournament, read once (reading it seats nothing: ``boards.seat_after``)."""
    tournament = tournaments.load(get_db(), tournament_id)
    if tournament is None:
        abort(404, str(boards.KINDS["tournament"].missing))
    return tournament


def side_totals(match: tournaments.Match) -> dict[int, int]:
    """Each entrant's total at the match's table: a player's own, a pair's the two added."""
    out: dict[int, int] = {}
    for seat, (entrant, _partner) in enumerate(match.table.seats()):
        out[entrant] = out.get(entrant, 0) + (match.totals[seat] if seat < len(match.totals) else 0)
    return out


def games_won(match: tournaments.Match, rules: HouseRules) -> list[int]:
    """The winner of each game of a match that is over (a best of three's tally)."""
    return [
        bracket.going_through(match.table, g.totals, rules)[0]
        for g in match.games
        if g.over and match.table.fmt == "pairs"
    ]


def round_label(number: int, total: int) -> str:
    if number == total:
        return gettext("Final")
    return gettext("Round %(number)s", number=num(number))


def bracket_rounds(tournament: tournaments.Tournament) -> list[dict[str, Any]]:
    """Every round, played, under way or to come: its matches, each entrant's seed, name,
    total and whether they went through."""
    total = bracket.round_count(len(tournament.entrants), tournament.fmt)
    out = []
    for number in range(1, total + 1):
        matches = tournament.rounds[number - 1] if number <= len(tournament.rounds) else ()
        out.append(
            {
                "number": number,
                "label": round_label(number, total),
                "matches": [
                    {
                        "number": m.number,
                        "game_id": m.game_id,
                        "finished": m.finished,
                        "waiting": m.waiting,
                        "deals": m.deal_count,
                        "mine": rights.can_edit(m.game_id),
                        "games": [g.game_id for g in m.games] if tournament.best_of > 1 else [],
                        "sides": [
                            {
                                "seed": e + 1,
                                "name": tournament.name(e),
                                "total": side_totals(m)[e],
                                "wins": games_won(m, tournament.rules).count(e),
                                "through": e in m.through,
                            }
                            for e in m.table.entrants
                        ],
                    }
                    for m in matches
                ],
                "byes": [
                    {"seed": e + 1, "name": tournament.name(e)}
                    for e in (tournament.byes if number == 1 else ())
                ],
            }
        )
    return out


def problem_lines(tournament: tournaments.Tournament) -> list[str]:
    """What the bracket holds that cannot be, a sentence each (none, unless the data went
    wrong: the pages say so instead of failing)."""
    return [
        str(PROBLEM_TEXT[p.kind])
        % {
            "name": tournament.name(p.entrant if p.entrant is not None else -1),
            "round": num(p.round),
            "next": num(p.round + 1),
            "table": num(p.table or 0),
        }
        for p in tournament.problems
    ]


def bracket_context(tournament: tournaments.Tournament) -> dict[str, Any]:
    champion = tournament.champion
    organiser = rights.can_run_tournament(tournament.id)
    return {
        "tournament": tournament,
        "problems": problem_lines(tournament),
        "rounds": bracket_rounds(tournament),
        "champion": None if champion is None else tournament.name(champion),
        "format_rule": tournaments.FORMAT_RULES[tournament.fmt],
        "tie_rule": tournaments.TIE_RULE,
        "best_of_rule": tournaments.BEST_OF_RULE if tournament.best_of > 1 else None,
        "bye_rule": tournaments.BYE_RULE,
        "seeding": SEEDING_LABELS.get(tournament.seeding, ""),
        "rules_line": rules_text(json.dumps(tournament.rules.to_dict())),
        "organiser": organiser,
        "round_form": RoundForm(formdata=None),
        "can_reopen": organiser and _can_reopen(tournament),
        "due": organiser and tournaments.due(tournament),
        "problem": None,
        **boards.organiser_links("tournament", tournament.id),
        "live_attrs": boards.live_attrs("tournament", tournament.id, tournament.version),
    }


@bp.get("/<int:tournament_id>")
def show(tournament_id: int):
    """The bracket: every round's matches and where each stands, the rules the page keeps to,
    and for the organiser each table's phones, edit link and QR code."""
    tournament = fetch_tournament(tournament_id)
    _grant_tables(tournament)
    return render_template("tournaments/show.html", **bracket_context(tournament))


def bracket_state(tournament: tournaments.Tournament, _version: str) -> dict[str, Any]:
    """What the bracket's page and wall poll: each match of the round under way, the champion,
    and the version as read (a write since then is the next poll's)."""
    current = tournament.rounds[-1] if tournament.rounds else ()
    champion = tournament.champion
    return dict(
        tournament=tournament.id,
        version=tournament.version,
        round=current[0].round if current else 0,
        matches=[
            {
                "table": m.number,
                "game": m.game_id,
                "deals": m.deal_count,
                "finished": m.finished,
                "waiting": m.waiting,
                "through": [tournament.name(e) for e in m.through],
            }
            for m in current
        ],
        champion=None if champion is None else tournament.name(champion),
        problems=problem_lines(tournament),
    )


# For a TV on the wall (1280×720), the whole bracket, read-only, refreshing itself; and the
# bracket's version and each match of the round under way, that it polls.
boards.add_views(bp, "tournament", fetch_tournament, bracket_context, bracket_state)


@bp.get("/<int:tournament_id>/bracket.pdf")
def bracket_pdf(tournament_id: int):
    """The bracket on one page, in English or Arabic."""
    tournament = fetch_tournament(tournament_id)
    context = bracket_context(tournament)
    data = printed(
        "bracket",
        "bracket_pdf",
        title=tournament.title,
        played_on=tournament.played_on,
        rounds=[
            {
                "number": r["number"],
                "final": r["number"] == len(context["rounds"]),
                "byes": r["byes"],
                "matches": [{k: v for k, v in m.items() if k != "mine"} for m in r["matches"]],
            }
            for r in context["rounds"]
        ],
        champion=context["champion"],
        problems=context["problems"],
        rules=[
            r
            for r in (
                context["format_rule"],
                context["best_of_rule"],
                context["bye_rule"],
                context["tie_rule"],
            )
            if r
        ],
        lang=print_language(),
        digits=sheet_digits(),
    )
    return pdf_response(data, f"{slug(tournament.title) or 'tournament'}-bracket.pdf")


# -- the organiser reopens a round --------------------------------------------------------------
class RoundForm(FlaskForm):
    """Reopen a round, or seat the next one again (the form is its CSRF token alone)."""


def _can_reopen(tournament: tournaments.Tournament) -> bool:
    """May the organiser's page offer to reopen the round before the last: the last has no
    deal yet (the store refuses it otherwise)."""
    return len(tournament.rounds) > 1 and not any(
        g.deal_count for m in tournament.rounds[-1] for g in m.games
    )


def _organiser_form(tournament_id: int) -> tournaments.Tournament:
    tournament = fetch_tournament(tournament_id)
    boards.require_organiser("tournament", tournament_id, RoundForm())
    return tournament


@bp.post("/<int:tournament_id>/rounds/<int:number>/reopen")
def reopen(tournament_id: int, number: int):
    """Reopen the matches of round *number*: the next round, while none of its deals is played,
    is unseated, and waits for the organiser to seat it again."""
    tournament = _organiser_form(tournament_id)
    try:
        reopening.reopen(get_db(), tournament_id, number)
    except Refused as exc:
        context = {**bracket_context(tournament), "problem": refusal(exc)}
        return render_template("tournaments/show.html", **context), 409
    flash_words(
        lazy_gettext(
            "Round %(number)s is open again: its tables can correct their deals. Seat the next "
            "round when they are done.",
            number=num(number),
        )
    )
    return redirect(url_for("tournaments.show", tournament_id=tournament_id), 303)


@bp.post("/<int:tournament_id>/rounds")
def seat_again(tournament_id: int):
    """The organiser is done with a reopened round, or seats a round due that no write seated:
    the next is seated now when it is decided, else by the write that decides it."""
    _organiser_form(tournament_id)
    db = get_db()
    with db.atomic():
        reopening.seat_again(db, tournament_id)
        tournaments.advance(db, tournament_id, **boards.table_titles())
    return redirect(url_for("tournaments.show", tournament_id=tournament_id), 303)


@bp.app_template_global()
def latest_tournaments() -> list[dict[str, Any]]:
    """The latest tournaments, for the home page."""
    return tournaments.list_tournaments(get_db(), limit=5)
