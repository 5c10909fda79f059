"""The one place where the web wing turns an engine Problem into words.

The engine reports a message code and its parameters; here the code's English template (the
msgid) is looked up in the current language's catalog and formatted with the same parameters.
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext

from ..engine import Problem
from ..engine.contracts import CONTRACT_LABELS, Contract
from ..engine.messages import MESSAGES
from .words import table_words

#: Where a form says things better than the file-format wording (the form has buttons, not keys).
FORM_MESSAGES: dict[str, str] = {
    "bad_thrown_in_reason": "say why the deal was thrown in",
    "no_first_king": "say who holds the 7♥",
    "bad_first_king": "say who holds the 7♥",
}
SAY_WHO = "say {what}"

_LABEL_TO_CONTRACT = {label: contract for contract, label in CONTRACT_LABELS.items()}


def contract_label(contract: Contract | str, short: bool = False) -> str:
    """The contract's name in the current language, in the table's own words if it has some."""
    contract = Contract(contract) if not isinstance(contract, Contract) else contract
    own = table_words().get(contract)
    if own:
        return own
    if short and contract is Contract.KING_OF_HEARTS:
        return gettext("K♥")
    return gettext(CONTRACT_LABELS[contract])


def _params(problem: Problem) -> dict[str, Any]:
    params = dict(problem.params)
    question = params.get("question")
    if problem.code == "bad_seat" and isinstance(question, str):  # "K♥: who took it"
        what = gettext(question)
        card = params.get("card")
        params["what"] = gettext("%(where)s: %(what)s", where=card, what=what) if card else what
    if "seat" in params and isinstance(params["seat"], int):
        params["seat"] = params["seat"] + 1  # people count players from 1
    card = params.get("card")
    if isinstance(card, str):  # the engine names cards in English: "the K♥", "a diamond"
        if card.startswith("the "):
            params["card"] = gettext("the %(card)s", card=card[4:])
        elif card == "a diamond":
            params["card"] = gettext("a diamond")
    for key in ("contract", "expected"):
        value = params.get(key)
        if isinstance(value, str) and value in _LABEL_TO_CONTRACT:
            params[key] = contract_label(_LABEL_TO_CONTRACT[value])
    return params


def _format(template: str, params: dict[str, Any]) -> str:
    from .i18n import num

    params = {key: num(value) if type(value) is int and key != "value" else value
              for key, value in params.items()}  # digits as the phone reads them
    try:
        return gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template


def _where(problem: Problem) -> str:
    """"Game 2, Deal 3, Diamonds": which game, deal and contract a problem is about."""
    from .i18n import num

    parts = []
    if problem.game is not None:
        parts.append(gettext("Game %(number)s", number=num(problem.game)))
    if problem.deal is not None:
        parts.append(gettext("Deal %(number)s", number=num(problem.deal)))
    if problem.contract is not None:
        parts.append(contract_label(problem.contract))
    return gettext(", ").join(parts)


def problem_text(problem: Problem, *, context: bool = False) -> str:
    """The problem as a sentence; with *context*, prefixed by its deal and contract."""
    params = _params(problem)
    if problem.code == "bad_seat" and params.get("value") is None:
        params.setdefault("what", "who")
        text = _format(SAY_WHO, params)
    elif problem.code in FORM_MESSAGES:
        text = _format(FORM_MESSAGES[problem.code], params)
    else:
        text = _format(MESSAGES.get(problem.code, problem.code), params)
    if context:
        where = _where(problem)
        if where:
            text = gettext("%(where)s: %(what)s", where=where, what=text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
