"""The King's hand and the open contracts, read from what a person types or taps.

A problem is an :class:`AdviceError` with a message code (``engine/messages.py``) and its
parameters, said in words by whoever shows it, like every problem of the engine.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..cards import parse_card
from ..contracts import ALL_CONTRACTS, Contract
from ..errors import Problem, RuleError
from ..messages import render

HAND_SIZE = 13


class AdviceError(RuleError):
    """A hand or a list of contracts the advisor cannot use; the message says why."""

    def __init__(self, code: str, params: dict[str, Any] | None = None):
        self.code = code
        self.params = dict(params or {})
        super().__init__(render(self.code, self.params))

    def problem(self, **context: Any) -> Problem:
        return Problem(self.code, self.params, **context)


def parse_hand(cards: str | Iterable[str]) -> int:
    """The King's 13 cards as a mask, from text such as ``"AS KS 7H TD ..."`` (commas allowed)
    or from one word per card. Ranks 2-9, T or 10, J, Q, K, A; suits S H D C or ♠ ♥ ♦ ♣."""
    words = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    mask = 0
    for word in words:
        try:
            card = parse_card(str(word))
        except ValueError:
            raise AdviceError("hand_not_card", {"value": str(word)}) from None
        if mask & card.bit:
            raise AdviceError("hand_card_twice", {"value": card.pretty})
        mask |= card.bit
    if len(words) != HAND_SIZE:
        raise AdviceError("hand_size", {"count": len(words)})
    return mask


def parse_contracts(names: str | Iterable[str]) -> tuple[Contract, ...]:
    """Open contracts by their file-format names (``"king_of_hearts,queens"``), in the
    scoresheet's order; a name given twice counts once."""
    words = names.replace(",", " ").split() if isinstance(names, str) else list(names)
    found = set()
    for word in words:
        try:
            found.add(Contract(word.strip().lower()))
        except ValueError:
            raise AdviceError(
                "advice_unknown_contract",
                {"value": word, "allowed": ", ".join(c.value for c in ALL_CONTRACTS)},
            ) from None
    if not found:
        raise AdviceError("advice_nothing_open", {})
    return tuple(c for c in ALL_CONTRACTS if c in found)
