"""Where the web wing turns an engine Problem into words, and names a contract.

The engine reports a message code and its parameters; ``languages.problem_sentence`` looks the
code's English template (the msgid) up in the page's catalog and formats it with the same
parameters, in the phone's digits and the table's words.
"""
from __future__ import annotations

from flask_babel import gettext

from ..engine import Problem
from ..engine.contracts import CONTRACT_LABELS, Contract
from ..languages import problem_sentence
from .i18n import num
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
    return problem_sentence(problem, say=gettext, number=num, label=contract_label,
                            context=context, lapsed=lapsed)
