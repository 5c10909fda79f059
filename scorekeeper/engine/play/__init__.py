"""Playing a deal card by card: trick deals, Trex, redeals and the history they keep."""

from __future__ import annotations

from typing import Iterable, Sequence

from ..contracts import Contract
from ..rules import HouseRules
from .base import HandInput
from .records import (
    PASS,
    Action,
    CardPlayed,
    DoubleChoice,
    DoubleDecision,
    FinishedOut,
    Passed,
    PassTurn,
    Record,
    TrickWon,
    TwosRevealed,
)
from .redeal import (
    KH_REDEAL,
    TREX_TWOS,
    is_split_queens,
    is_sweep,
    kh_redeal_allowed,
    kh_redeal_seat,
    kh_redeal_seats,
    redeal_requests,
    trex_throw_in_allowed,
    trex_throw_in_seats,
)
from .trex import TrexDeal
from .tricks import TrickDeal, doubling_queue, trick_contracts

Deal = TrickDeal | TrexDeal

__all__ = [
    "PASS",
    "Action",
    "CardPlayed",
    "Deal",
    "DoubleChoice",
    "DoubleDecision",
    "FinishedOut",
    "KH_REDEAL",
    "Passed",
    "PassTurn",
    "Record",
    "TREX_TWOS",
    "TrexDeal",
    "TrickDeal",
    "TrickWon",
    "TwosRevealed",
    "doubling_queue",
    "is_split_queens",
    "is_sweep",
    "kh_redeal_allowed",
    "kh_redeal_seat",
    "kh_redeal_seats",
    "new_deal",
    "redeal_requests",
    "trex_throw_in_allowed",
    "trex_throw_in_seats",
    "trick_contracts",
]


def new_deal(
    hands: Sequence[HandInput],
    dealer: int,
    contracts: Contract | Iterable[Contract],
    rules: HouseRules | None = None,
) -> TrickDeal | TrexDeal:
    """A deal of these contracts: Trex alone, or one or more trick contracts."""
    found = (contracts,) if isinstance(contracts, Contract) else tuple(contracts)
    if Contract.TREX in found and len(found) == 1:
        return TrexDeal(hands, dealer, rules)
    return TrickDeal(hands, dealer, found, rules)
