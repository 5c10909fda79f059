"""What the house rules change in how the cards of a trick deal are played, made once.

A trick deal is played three ways: card by card through :class:`~.tricks.TrickDeal` (every card
checked, a history kept), on plain ints by bots choosing on masks (:mod:`.quick`), and by
uniformly random players (:mod:`.fast`). Each reads the rules of play from one
:class:`TrickPlay`, made by :func:`trick_play`; a rule that changes play is written here, and
``tests/engine/test_play_loops.py`` holds the three ways to the same cards on every combination of
rules.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..cards import DIAMONDS_MASK, FULL_MASK, HEARTS_MASK, KING_OF_HEARTS, QUEENS_MASK
from ..contracts import Contract
from ..rules import HouseRules

KH_BIT = KING_OF_HEARTS.bit
#: The cards whose taking costs points, per contract (Collections: none, every trick costs).
PENALTY_MASKS: dict[Contract, int] = {
    Contract.KING_OF_HEARTS: KH_BIT,
    Contract.DIAMONDS: DIAMONDS_MASK,
    Contract.QUEENS: QUEENS_MASK,
    Contract.COLLECTIONS: 0,
}


class TrickPlay(NamedTuple):
    """The rules of play of one trick deal, as masks.

    *lead*: a leader plays one of these when they hold one (every card; under
    ``no_heart_lead`` in King of Hearts, no heart). *discard*: a player who cannot follow suit
    plays one of these when they hold one (under ``must_discard_penalty``, the deal's penalty
    cards; else none). *stop*: a trick holding one of these ends the deal (the K♥, in King of
    Hearts played alone)."""

    lead: int
    discard: int
    stop: int

    def legal(self, hand: int, suit: int) -> int:
        """The cards of *hand* that may be played, *suit* being the mask of the suit led (0 to
        lead). :mod:`.quick` and :mod:`.fast` write this same line inline in their loops."""
        if not suit:
            return hand & self.lead or hand
        return hand & suit or hand & self.discard or hand


def penalty_mask(contracts: Sequence[Contract]) -> int:
    """The cards whose taking costs points in a deal of these contracts."""
    mask = 0
    for contract in contracts:
        mask |= PENALTY_MASKS[contract]
    return mask


def trick_play(
    contracts: Sequence[Contract], rules: HouseRules, *, stop_early: bool = True
) -> TrickPlay:
    """The rules of play of a deal of these trick *contracts*. *stop_early*: a King of Hearts
    deal played alone ends when the K♥ is taken (RULES.md "King of Hearts")."""
    king_of_hearts = Contract.KING_OF_HEARTS in contracts
    return TrickPlay(
        lead=FULL_MASK ^ HEARTS_MASK if rules.no_heart_lead and king_of_hearts else FULL_MASK,
        discard=penalty_mask(contracts) if rules.must_discard_penalty else 0,
        stop=KH_BIT if stop_early and king_of_hearts and len(contracts) == 1 else 0,
    )


__all__ = ["KH_BIT", "PENALTY_MASKS", "TrickPlay", "penalty_mask", "trick_play"]
