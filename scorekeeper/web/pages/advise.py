"""Advise: the King taps their 13 cards and the engine plays each open choice forward.

Only a phone that may keep the game's score opens it. The hand travels in the body of one POST
and back in its answer page, sent with ``Cache-Control: no-store``: it is not written to the
database, kept in the session or put in an address, and no other page shows it.

Working advice out holds a server thread for a second or more, so it is limited while it runs
(``web/keeping/inflight.py``): one per game, one per client address, a few in all.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from ...engine.advisor import Advice, AdviceError, ChoiceAdvice, advise, parse_hand, warm_up
from ...engine.advisor.baseline import averages, rules_key
from ...engine.cards import CARDS, Rank, Suit
from ...engine.progression import Progress
from ...engine.rules import HouseRules
from ..making.flashes import flash_words
from ..making.i18n import figure as figure_text, num
from ..making.messages import contract_label, problem_text
from ..making.present import contracts_label, signed
from ..keeping.inflight import ADVICE
from ..keeping.printer import database_path
from ..access.rights import client, edit_required
from .games import fetch_game

bp = Blueprint("advise", __name__, url_prefix="/games/<int:game_id>")
#: Each suit's ranks as the picker shows them, highest first.
RANKS = tuple(reversed(Rank))


class AdviseForm(FlaskForm):
    """Only the CSRF token: the cards are the checkboxes named ``card``."""


@dataclass
class Row:
    """One choice as the page shows it: its name, the advice and what the deals showed."""

    label: str
    advice: ChoiceAdvice
    seen: list[str]


#: What a screen reader says for a suit and for the ranks that are not numbers.
SUIT_NAMES = {
    Suit.SPADES: lazy_gettext("spades"),
    Suit.HEARTS: lazy_gettext("hearts"),
    Suit.DIAMONDS: lazy_gettext("diamonds"),
    Suit.CLUBS: lazy_gettext("clubs"),
}
RANK_NAMES = {
    Rank.JACK: lazy_gettext("jack"),
    Rank.QUEEN: lazy_gettext("queen"),
    Rank.KING: lazy_gettext("king"),
    Rank.ACE: lazy_gettext("ace"),
}


def picker_suits(picked: set[str]) -> list[dict[str, Any]]:
    """The four suit rows of the picker: each card's value (``"AS"``), the index printed on
    the card, its name for a screen reader, and whether it is ticked."""
    rows = []
    for suit in Suit:
        cards = []
        for rank in RANKS:
            card = CARDS[suit * 13 + rank]
            name = str(RANK_NAMES[rank]) if rank in RANK_NAMES else num(rank.label)
            cards.append(
                {
                    "value": str(card),
                    "label": rank.label,
                    "checked": str(card) in picked,
                    "name": _("%(rank)s of %(suit)s", rank=name, suit=SUIT_NAMES[suit]),
                }
            )
        rows.append({"suit": suit, "name": str(SUIT_NAMES[suit]), "cards": cards})
    return rows


@bp.route("/advise", methods=["GET", "POST"])
@edit_required
def show(game_id: int):
    stored = fetch_game(game_id)
    progress = stored.game.progress()
    if progress.is_over:
        flash_words(lazy_gettext("The game is over: there is no contract left to choose."))
        return redirect(url_for("games.show", game_id=game_id), 303)
    options = progress.deal_options()
    rules = stored.game.rules
    form = AdviseForm()
    picked: list[str] = []
    answer = problem = retry = None
    status = 200
    if request.method == "POST":
        picked = request.form.getlist("card")
        if not form.validate():
            problem, status = _("This form has expired. Pick the cards again."), 400
        else:
            try:
                hand = parse_hand(picked)
                with ADVICE.one_each(("game", database_path(), game_id), ("client", client())):
                    answer = advise(hand, options, rules, deals=current_app.config["ADVISOR_DEALS"])
            except AdviceError as exc:
                problem, status = problem_text(exc.problem()), 400
            except (TooManyRequests, ServiceUnavailable) as exc:  # asked again, or busy
                problem, status, retry = exc.description, exc.code, exc.retry_after
    else:
        _prepare(rules, options)
    response = make_response(
        render_template(
            "advise.html",
            stored=stored,
            names=stored.game.players,
            form=form,
            suits=picker_suits(set(picked)),
            picked=len(picked),
            problem=problem,
            king=progress.king,
            partner=_partner(progress, rules),
            rows=_rows(answer),
            advice=answer,
            open=[contract_label(c) for c in progress.contracts_left()],
            digits=num("0123456789"),
        ),
        status,
    )
    response.headers["Cache-Control"] = "no-store"
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response


#: The rules whose average hand a thread is measuring now: one thread each, however many ask.
_MEASURING: set[str] = set()
_measuring_lock = threading.Lock()


def _prepare(rules: HouseRules, options: list) -> None:
    """While the King picks their cards: start the worker processes, and measure the average
    hand for these rules if nothing knows it yet (a moment for rules off the presets)."""
    warm_up()
    key = rules_key(rules)
    with _measuring_lock:
        if key in _MEASURING:
            return
        _MEASURING.add(key)
    threading.Thread(target=_measure, args=(key, rules, options), daemon=True).start()


def _measure(key: str, rules: HouseRules, options: list) -> None:
    try:
        averages(rules, options)
    finally:
        with _measuring_lock:
            _MEASURING.discard(key)


def _partner(progress: Progress, rules: HouseRules) -> int | None:
    king = progress.king
    return (king + 2) % 4 if rules.partnership and king is not None else None


def _rows(advice: Advice | None) -> list[Row]:
    if advice is None:
        return []
    return [Row(contracts_label(c.contracts), c, seen_lines(c)) for c in advice.choices]


def percent(share: float) -> str:
    return num(round(100 * share))


def decimal(value: float) -> str:
    return figure_text(value, places=1)


def seen_lines(choice: ChoiceAdvice) -> list[str]:
    """What the simulations saw, one sentence per contract of the choice."""
    lines = []
    if choice.king_of_hearts is not None:
        lines.append(
            _("You take the K♥ in %(share)s%% of deals.", share=percent(choice.king_of_hearts))
        )
    if choice.diamonds is not None:
        lines.append(_("You take %(count)s diamonds on average.", count=decimal(choice.diamonds)))
    if choice.queens is not None:
        lines.append(_("You take %(count)s queens on average.", count=decimal(choice.queens)))
    if choice.tricks is not None:
        lines.append(_("You take %(count)s tricks on average.", count=decimal(choice.tricks)))
    if choice.first_out is not None and choice.place is not None:
        lines.append(
            _(
                "You go out first in %(share)s%% of deals; your average place is %(place)s.",
                share=percent(choice.first_out),
                place=decimal(choice.place),
            )
        )
    return lines


def points(value: float) -> str:
    """A figure of the advice as a whole signed number: +12, −31, 0."""
    return num(signed(round(value)))


@bp.app_template_filter("figure")
def figure(value: float) -> Markup:
    """``a.expected|figure``: :func:`points`, its sign kept on its left in either direction."""
    return Markup('<span class="ltr">%s</span>') % points(value)
