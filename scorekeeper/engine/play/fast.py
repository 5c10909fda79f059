"""Whole deals played by uniformly random players, on plain ints, for fast simulation.

Each function makes exactly the draws that :class:`~scorekeeper.engine.bots.RandomBot` makes when
it drives :class:`TrickDeal` or :class:`TrexDeal` through their public API (the k-th legal card
in index order, k = ``int(random() * count)``, and no draw when only one card is legal), so a
game simulated either way is the same game. The tests hold the two paths to that.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Callable, Sequence

from ..cards import BITS, FULL_MASK, JACKS_MASK, SUIT_MASKS
from ..contracts import Contract
from ..rules import HouseRules
from .quick import CAPTURE_MASK, TrickOutcome, note_leads, take_trick
from .trex import GROWTH
from .trickplay import TrickPlay, trick_play

#: The three seats that follow each leader, in turn.
_FOLLOWERS = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))


def play_tricks_randomly(
    hands: Sequence[Sequence[int]],
    dealer: int,
    contracts: Sequence[Contract],
    rules: HouseRules,
    random: Callable[[], float],
) -> TrickOutcome:
    """Play a trick deal (after doubling) with random players; return who took what.

    *hands* are the four hands as lists of card indices in increasing order.
    """
    play = trick_play(contracts, rules)
    if play.lead != FULL_MASK or play.discard:
        return _play_variant(hands, dealer, play, random)
    held = [list(h) for h in hands]
    stop = play.stop
    bits = BITS
    taken = [0, 0, 0, 0]
    tricks = [0, 0, 0, 0]
    lead_of: dict[int, int] = {}
    leader = dealer
    for _ in range(len(held[0])):
        cards = held[leader]
        count = len(cards)
        best = cards.pop(int(random() * count)) if count > 1 else cards.pop()
        trick = bits[best]
        low = best - best % 13
        high = low + 13
        winner = leader
        for seat in _FOLLOWERS[leader]:
            cards = held[seat]
            first = bisect_left(cards, low)
            count = bisect_left(cards, high, first) - first
            if count:
                card = cards.pop(first + int(random() * count)) if count > 1 else cards.pop(first)
                if card > best:
                    best, winner = card, seat
            else:
                count = len(cards)
                card = cards.pop(int(random() * count)) if count > 1 else cards.pop()
            trick |= bits[card]
        taken[winner] |= trick
        tricks[winner] += 1
        if trick & CAPTURE_MASK:
            note_leads(trick, leader, lead_of)
        leader = winner
        if trick & stop:
            break
    return TrickOutcome(taken, tricks, lead_of)


def _choose(cards: list[int], allowed: int, random: Callable[[], float]) -> int:
    """Remove and return the k-th of the *cards* in the mask *allowed* (or of all the cards
    when none is), k drawn uniformly."""
    positions = [p for p, c in enumerate(cards) if BITS[c] & allowed] or range(len(cards))
    count = len(positions)
    return cards.pop(positions[int(random() * count)] if count > 1 else positions[0])


def _play_variant(
    hands: Sequence[Sequence[int]], dealer: int, play: TrickPlay, random: Callable[[], float]
) -> TrickOutcome:
    """The same as :func:`play_tricks_randomly`, where the rules of play limit a lead or a
    discard (``no_heart_lead``, ``must_discard_penalty``): :meth:`TrickPlay.legal`, inline."""
    held = [list(h) for h in hands]
    lead_mask, penalty, stop = play
    taken = [0, 0, 0, 0]
    tricks = [0, 0, 0, 0]
    lead_of: dict[int, int] = {}
    leader = dealer
    for _ in range(len(held[0])):
        best = _choose(held[leader], lead_mask, random)
        trick = BITS[best]
        suit = SUIT_MASKS[best // 13]
        winner = seat = leader
        for _ in range(3):
            seat = (seat + 1) & 3
            cards = held[seat]
            card = _choose(cards, suit if any(BITS[c] & suit for c in cards) else penalty, random)
            if BITS[card] & suit and card > best:
                best, winner = card, seat
            trick |= BITS[card]
        leader = take_trick(trick, winner, leader, taken, tricks, lead_of)
        if trick & stop:
            break
    return TrickOutcome(taken, tricks, lead_of)


def play_trex_randomly(hands: Sequence[int], dealer: int, random: Callable[[], float]) -> list[int]:
    """Play a Trex deal with random players; return the finishing order."""
    hands = list(hands)
    playable = JACKS_MASK
    growth = GROWTH
    order: list[int] = []
    seat = dealer
    while True:
        hand = hands[seat]
        legal = hand & playable
        if legal:
            if legal & (legal - 1):
                for _ in range(int(random() * legal.bit_count())):
                    legal &= legal - 1
                legal &= -legal
            hand ^= legal
            hands[seat] = hand
            playable ^= legal | growth[legal.bit_length() - 1]
            if not hand:
                order.append(seat)
                if len(order) == 3:
                    break
        seat = (seat + 1) & 3
        while not hands[seat]:
            seat = (seat + 1) & 3
    order.append(6 - sum(order))
    return order
