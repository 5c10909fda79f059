"""Where the web wing turns an engine Problem or a store's refusal into words, and names a
contract.

The engine reports a message code and its parameters; ``languages.problem_sentence`` looks the
code's English template (the msgid) up in the page's catalog and formats it with the same
parameters, in the phone's digits and the table's words. The store refuses with a ``Refused``:
its English message marked ``N_``, its values and the players' names it holds, which
``refusal`` says the same way (and ``flashes`` does, for a message shown on the next page).
"""

from __future__ import annotations

from typing import Any, Mapping

from flask_babel import gettext
from markupsafe import Markup, escape

from ...engine import Problem
from ...engine.contracts import CONTRACT_LABELS, Contract
from ...languages import problem_sentence
from ...store.refused import Refused
from .i18n import isolated, num
from .words import table_words


def contract_label(contract: Contract | str, short: bool = False) -> str:
    """The contract's name in the current language, in the table's own words if it has some."""
    contract = Contract(contract) if not isinstance(contract, Contract) else contract
    own = table_words().get(contract)
    if own:
        return own
    if short and contract is Contract.KING_OF_HEARTS:
        return gettext("K♥")
    return gettext(CONTRACT_LABELS[contract])


def problem_text(problem: Problem, *, context: bool = False, lapsed: bool = False) -> str:
    """The problem as a sentence in the page's language and digits, the contracts in the
    table's words; with *context*, prefixed by its game, deal and contract; with *lapsed*, said
    of a stored deal a later check refuses."""
    return problem_sentence(
        problem, say=gettext, number=num, label=contract_label, context=context, lapsed=lapsed
    )


def said(text: str, values: Mapping[str, Any], names: Mapping[str, str] | None = None) -> Markup:
    """*text*, translated already, with its *values* (numbers in the phone's digits) and the
    players' *names* (each isolated in ``<bdi>``) put in its ``%(key)s`` placeholders."""
    filled: dict[str, Any] = {
        key: num(value) if type(value) is int else value for key, value in values.items()
    }
    filled.update({key: isolated(name) for key, name in (names or {}).items()})
    return escape(text) % filled


def refusal(exc: Refused) -> Markup:
    """A refusal of the store in the page's language, names isolated, digits the phone's."""
    return said(gettext(exc.message), exc.values, exc.names)
