"""Redeals read from the hands (RULES.md "King of Hearts", "Trex") and sweeps read from a result.

Hands are masks (see :mod:`scorekeeper.engine.cards`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import scoring
from ..cards import THREES_MASK, TWOS_MASK, Rank, Suit
from ..contracts import Contract
from ..records import read_deal
from ..rules import HouseRules

KH_REDEAL = "kh-redeal"
TREX_TWOS = "trex-twos"

_KING = 1 << Rank.KING
_ACE = 1 << Rank.ACE
_HEARTS_SHIFT = 13 * Suit.HEARTS
_RANKS = (1 << 13) - 1
#: The seats in turn from each dealer.
_TURNS = tuple(tuple((dealer + k) % 4 for k in range(4)) for dealer in range(4))


def kh_redeal_allowed(hand: int, rules: HouseRules) -> bool:
    """May this hand ask for a redeal in King of Hearts? The K♥ alone, the A♥ alone, or K♥ A♥
    and no other heart; with ``kh_redeal_any_doubleton``, also the K♥ and any one other heart."""
    hearts = hand >> _HEARTS_SHIFT & _RANKS
    if hearts == _KING or hearts == _ACE or hearts == _KING | _ACE:
        return True
    return rules.kh_redeal_any_doubleton and bool(hearts & _KING) and hearts.bit_count() == 2


def kh_redeal_seats(hands: Sequence[int], rules: HouseRules, dealer: int = 0) -> list[int]:
    """The seats that may ask for a King of Hearts redeal, in turn from the dealer: the holder
    of the K♥, of the A♥, or both, when their hearts allow it."""
    return [s for s in _TURNS[dealer] if kh_redeal_allowed(hands[s], rules)]


def kh_redeal_seat(hands: Sequence[int], rules: HouseRules, dealer: int = 0) -> int | None:
    """The first seat, in turn from the dealer, that may ask for a King of Hearts redeal."""
    seats = kh_redeal_seats(hands, rules, dealer)
    return seats[0] if seats else None


def trex_throw_in_allowed(hand: int) -> bool:
    """All four 2s, or three 2s and the 3 of the fourth suit."""
    twos = hand & TWOS_MASK
    count = twos.bit_count()
    if count == 4:
        return True
    if count != 3:
        return False
    missing_two = TWOS_MASK ^ twos
    return bool(hand & THREES_MASK & (missing_two << 1))


def trex_throw_in_seats(hands: Sequence[int], dealer: int) -> list[int]:
    """The seats, in turn from the dealer, that may demand a Trex throw-in (at most one)."""
    return [s for s in _TURNS[dealer] if trex_throw_in_allowed(hands[s])]


def redeal_requests(
    hands: Sequence[int], dealer: int, contracts: Sequence[Contract], rules: HouseRules
) -> list[tuple[int, str]]:
    """Who may ask for a redeal of this deal and why, in turn from the dealer (nobody under
    ``no_redeal_requests``)."""
    out: list[tuple[int, str]] = []
    if rules.no_redeal_requests:
        return out
    if Contract.KING_OF_HEARTS in contracts:
        out.extend((seat, KH_REDEAL) for seat in kh_redeal_seats(hands, rules, dealer))
    if Contract.TREX in contracts:
        out.extend((seat, TREX_TWOS) for seat in trex_throw_in_seats(hands, dealer))
    return out


def is_sweep(result: Mapping[str, Any], rules: HouseRules) -> bool:
    """Under ``sweep_replay``: whether a played deal's file-format result is a sweep
    (RULES.md "Sweeps"); the scorer's rule, applied to the result as the table would enter it."""
    if rules.sweep_replay is None or "thrown_in" in result:
        return False
    record, _problems = read_deal(result)
    return record is not None and scoring.is_sweep(record, rules)


def is_split_queens(result: Mapping[str, Any], rules: HouseRules) -> bool:
    """Under ``split_queens_replay``: whether a played deal's file-format result is Queens
    split two and two between the teams (RULES.md "Partnership"), by the scorer's rule."""
    if not rules.split_queens_replay or result.get("contracts") != [Contract.QUEENS.value]:
        return False
    record, _problems = read_deal(result)
    return record is not None and scoring.is_split_queens(record, rules)


__all__ = [
    "KH_REDEAL",
    "TREX_TWOS",
    "kh_redeal_allowed",
    "kh_redeal_seat",
    "kh_redeal_seats",
    "trex_throw_in_allowed",
    "trex_throw_in_seats",
    "redeal_requests",
    "is_sweep",
    "is_split_queens",
]
