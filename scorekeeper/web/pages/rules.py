"""Rules at hand: a short page per contract (or per combination of contracts), in the page's
language and digits, with what each costs, the doubling rule and the house rules; for a game,
the house rules that game plays with.

Every line comes from the printed sheet's own summary (``printing.sheet.contract_rules``: the
engine's value table, the sheet's doubling line, the rules line), so nothing is written twice.
"""

from __future__ import annotations

from typing import Sequence

from flask import Blueprint, abort, render_template, url_for
from flask_babel import gettext

from ...engine.contracts import ALL_CONTRACTS, Contract
from ...engine.rules import HouseRules
from ...printing.language import isolate_ltr, words_for
from ...printing.sheet import contract_names, contract_rules
from ..making.i18n import current_language, num
from ..making.present import contracts_label, contracts_query, parse_contracts
from ..making.words import table_words
from .games import fetch_game

bp = Blueprint("rules", __name__)


def rules_url(contracts: Contract | str | Sequence[Contract], game_id: int | None = None) -> str:
    """Where the rules of *contracts* are: a game's own (its house rules) or the usual ones."""
    if isinstance(contracts, (Contract, str)):
        contracts = (Contract(contracts),)
    query = contracts_query(contracts)
    if game_id is None:
        return url_for("rules.show", contracts=query)
    return url_for("rules.game", game_id=game_id, contracts=query)


def _contracts(text: str) -> tuple[Contract, ...]:
    contracts = parse_contracts([text])
    if contracts is None:
        abort(404, gettext("There is no such contract."))
    return contracts


def _page(contracts: tuple[Contract, ...], rules: HouseRules, **context):
    lang = current_language()
    words = words_for(lang, contract_names(table_words()))
    sections = [contract_rules(c, rules, lang, words) for c in contracts]
    return render_template(
        "rules.html",
        sections=sections,
        title=contracts_label(contracts),
        rules=rules,
        digits_ltr=lambda text: isolate_ltr(num(text)),
        **context,
    )


@bp.get("/rules/<contracts>")
def show(contracts: str):
    """The usual rules (the standard house rules) of one contract or a combination."""
    return _page(_contracts(contracts), HouseRules(), stored=None)


@bp.get("/games/<int:game_id>/rules/<contracts>")
def game(game_id: int, contracts: str):
    """The rules of one contract or a combination as this game plays them."""
    chosen = _contracts(contracts)
    stored = fetch_game(game_id)
    return _page(chosen, stored.game.rules, stored=stored)


bp.add_app_template_global(rules_url)
bp.add_app_template_global(ALL_CONTRACTS, "all_contracts")
