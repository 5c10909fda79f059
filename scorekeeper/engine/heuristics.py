"""The judgement of :class:`~scorekeeper.engine.bots.HeuristicBot`, after the tactics in the
source texts: which contract suits a hand, when to double, which card to lead, follow with or
discard, and which card to lay in Trex. Hands are masks; every function reads only the player's
own hand and what the table can see.
"""
from __future__ import annotations

from typing import Sequence

from .cards import FULL_MASK, KING_OF_HEARTS, SUIT_MASKS, Card, Rank, Suit, suit_ranks
from .contracts import Contract
from .play import TrexDeal, TrickDeal
from .play.trex import GROWTH
from .rules import HouseRules

_KH = KING_OF_HEARTS.index
_LOW = (1 << 6) - 1  # ranks 2..7
_PROTECTION = (1 << 7) - 1  # ranks 2..8
#: Average of :func:`trick_risk` over random hands (measured once over 80,000 hands).
_AVERAGE_RISK = 1.7


def _lengths(hand: int) -> list[int]:
    return [suit_ranks(hand, s).bit_count() for s in range(4)]


def _high_card_risk(ranks: int) -> float:
    """How likely the 10s and higher of one suit are to win tricks, given its low cards."""
    cover = 1.0 / (1.0 + 0.5 * (ranks & _LOW).bit_count())
    risk = 0.0
    for rank in range(Rank.TEN, Rank.ACE + 1):
        if ranks >> rank & 1:
            risk += (rank - 7) / 5 * cover
    return risk


def trick_risk(hand: int) -> float:
    """A rough count of tricks this hand is likely to take beyond its fair share's shape:
    unprotected high cards raise it, short suits (to discard on) lower it."""
    risk = 0.0
    for suit in range(4):
        ranks = suit_ranks(hand, suit)
        risk += _high_card_risk(ranks)
        if ranks.bit_count() <= 1:
            risk -= 0.6
    return risk


def _king_of_hearts(hand: int) -> float:
    lengths = _lengths(hand)
    hearts = lengths[Suit.HEARTS]
    shortest = min(n for s, n in enumerate(lengths) if s != Suit.HEARTS)
    if hand >> _KH & 1:
        if hearts >= 5:
            return 60.0
        if 3 <= hearts <= 4 and shortest <= 1:
            return 30.0
        high = suit_ranks(hand, Suit.HEARTS) & ((1 << Rank.ACE) | (1 << Rank.QUEEN))
        if 3 <= hearts <= 4 and high and shortest <= 2:
            return 25.0
        return -60.0 if hearts <= 2 else -25.0
    ace_alone = hand >> (_KH + 1) & 1 and hearts <= 2
    return -30.0 if ace_alone else -10.0 - 5 * (trick_risk(hand) - _AVERAGE_RISK)


def _queens(hand: int) -> float:
    value = 0.0
    for suit in range(4):
        ranks = suit_ranks(hand, suit)
        below = (ranks & ((1 << Rank.QUEEN) - 1)).bit_count()
        if ranks >> Rank.QUEEN & 1:
            value += 15.0 if below >= 3 else (-5.0 if below == 2 else -25.0)
        else:
            for rank in (Rank.KING, Rank.ACE):
                if ranks >> rank & 1 and below < 2:
                    value -= 8.0
    return value - 6.0 * (trick_risk(hand) - _AVERAGE_RISK)


def _diamonds(hand: int, value: int) -> float:
    ranks = suit_ranks(hand, Suit.DIAMONDS)
    lows = (ranks & _LOW).bit_count()
    expected = 3.25 + 0.6 * (trick_risk(hand) - _AVERAGE_RISK)
    expected += _high_card_risk(ranks) - 0.3 * lows
    if ranks.bit_count() >= 4 and not min(_lengths(hand)) <= 1:
        expected += 0.5
    return value * (expected - 3.25)


def _collections(hand: int, value: int) -> float:
    return value * 1.2 * (trick_risk(hand) - _AVERAGE_RISK)


def _trex(hand: int) -> float:
    distance = 0
    for index in range(52):
        if hand >> index & 1:
            distance += abs(index % 13 - Rank.JACK)
    value = (51 - distance) * 5.5
    for suit in range(4):
        ranks = suit_ranks(hand, suit)
        if not ranks:
            value -= 20.0
        elif ranks == 1 << Rank.JACK:
            value -= 10.0
    return value


def contract_advantage(hand: int, contract: Contract, rules: HouseRules) -> float:
    """Roughly how many points better than an even share this hand expects in *contract*."""
    swap = rules.swap_diamonds_collections
    if contract is Contract.KING_OF_HEARTS:
        return _king_of_hearts(hand)
    if contract is Contract.QUEENS:
        return _queens(hand)
    if contract is Contract.DIAMONDS:
        return _diamonds(hand, -15 if swap else -10)
    if contract is Contract.COLLECTIONS:
        return _collections(hand, -10 if swap else -15)
    return _trex(hand)


def double_is_wise(hand: int, card: Card) -> bool:
    """Double the K♥ with five hearts, or three or four with a short suit; a queen with three
    or more lower cards of its suit, two of them 8 or lower."""
    if card.index == _KH:
        return _king_of_hearts(hand) > 0
    ranks = suit_ranks(hand, card.suit)
    below = ranks & ((1 << Rank.QUEEN) - 1)
    return below.bit_count() >= 3 and (below & _PROTECTION).bit_count() >= 2


# --- trick play ------------------------------------------------------------------------------
def _unseen(deal: TrickDeal, seat: int) -> int:
    """Cards this player has not seen: in the other hands."""
    return FULL_MASK ^ deal.played_mask ^ deal.hand_mask(seat)


def _penalty_weight(deal: TrickDeal, card: Card) -> float:
    weight = 0.0
    if card.index == _KH and Contract.KING_OF_HEARTS in deal.contracts:
        weight += 100.0
    if card.rank is Rank.QUEEN and Contract.QUEENS in deal.contracts:
        weight += 30.0 + (10.0 if card in deal.doubled else 0.0)
    if card.suit is Suit.DIAMONDS and Contract.DIAMONDS in deal.contracts:
        weight += 10.0
    return weight + card.rank * 0.1


def _partner_winning(deal: TrickDeal, seat: int) -> bool:
    return deal.rules.partnership and deal.winning_seat == (seat + 2) % 4


def lead_card(deal: TrickDeal, legal: Sequence[Card]) -> Card:
    """Lead low from where higher cards are still out; force the K♥ out with hearts; with the
    K♥, shorten the other suits."""
    seat = int(deal.current_player or 0)
    hand = deal.hand_mask(seat)
    unseen = _unseen(deal, seat)
    penalty = deal.penalty_mask
    king_contract = Contract.KING_OF_HEARTS in deal.contracts
    lengths = _lengths(hand)

    def score(card: Card) -> float:
        out = unseen & SUIT_MASKS[card.suit]
        higher = (out >> card.index + 1).bit_count() if out else 0
        if not out:
            return -10.0 - (5.0 if card.bit & penalty else 0.0) - card.rank * 0.01
        value = min(higher, 4) * 1.0 - card.rank * 0.05
        if card.bit & penalty:
            value += 1.0 if higher >= 2 else -3.0
        if king_contract:
            if hand >> _KH & 1:
                value += (4 - lengths[card.suit]) * 0.5 if card.suit is not Suit.HEARTS else -1
            elif unseen >> _KH & 1 and card.suit is Suit.HEARTS:
                value += 1.5
        return value

    return max(legal, key=score)


def follow_card(deal: TrickDeal, legal: Sequence[Card]) -> Card:
    """Duck with the highest card that loses, dumping a penalty card under the winner; when
    forced to win, win last with the highest safe card, else stay low."""
    seat = int(deal.current_player or 0)
    trick = deal.current_trick
    led = deal.led_suit
    best = max(c.rank for _, c in trick if c.suit is led)
    penalty = deal.penalty_mask
    below = [c for c in legal if c.rank < best]
    last = len(trick) == 3
    if below:
        dumps = [c for c in below if c.bit & penalty]
        if dumps and not _partner_winning(deal, seat):
            return max(dumps, key=lambda c: _penalty_weight(deal, c))
        clean = not any(c.bit & penalty for _, c in trick)
        if last and clean and Contract.COLLECTIONS not in deal.contracts:
            safe = [c for c in legal if not c.bit & penalty]
            if safe and safe[-1].rank > best:
                return safe[-1]
        return max(below, key=lambda c: c.rank)
    safe = [c for c in legal if not c.bit & penalty] or list(legal)
    if last:
        return max(safe, key=lambda c: c.rank)
    return min(safe, key=lambda c: c.rank)


def discard_card(deal: TrickDeal, legal: Sequence[Card]) -> Card:
    """Unable to follow: dump the costliest penalty card, else shed a high card from a short
    suit (to a partner who is winning, keep the penalty cards)."""
    seat = int(deal.current_player or 0)
    penalty = deal.penalty_mask
    lengths = _lengths(deal.hand_mask(seat))
    dumps = [c for c in legal if c.bit & penalty]
    if _partner_winning(deal, seat):
        safe = [c for c in legal if not c.bit & penalty]
        if safe:
            return max(safe, key=lambda c: c.rank)
        return min(legal, key=lambda c: _penalty_weight(deal, c))
    if dumps:
        return max(dumps, key=lambda c: _penalty_weight(deal, c))
    return max(legal, key=lambda c: c.rank - 0.5 * lengths[c.suit])


# --- Trex ------------------------------------------------------------------------------------
def trex_card(deal: TrexDeal, legal: Sequence[Card]) -> Card:
    """Play the cards that open the player's own next cards, then those that open nothing
    (aces, 2s), and least of all those that open cards for the others; when giving cards away,
    stay in the suit held longest. In partnership, a 2 the partner showed is no gift."""
    seat = int(deal.current_player or 0)
    hand = deal.hand_mask(seat)
    friend = deal.revealed_mask((seat + 2) % 4) if deal.rules.partnership else 0
    lengths = _lengths(hand)

    def score(card: Card) -> tuple[float, int, int]:
        opens = GROWTH[card.index]
        own = (opens & (hand | friend)).bit_count()
        gifts = (opens & ~hand & ~friend).bit_count()
        chain = _chain(hand, card.index)
        return (2.0 * own - 1.5 * gifts + 0.3 * chain, lengths[card.suit], -card.index)

    return max(legal, key=score)


def _chain(hand: int, index: int) -> int:
    """How many of the player's cards follow *index* in an unbroken run away from the jack."""
    count = 0
    opens = GROWTH[index]
    while opens & hand:
        step = opens & hand
        count += step.bit_count()
        nxt = 0
        while step:
            low = step & -step
            nxt |= GROWTH[low.bit_length() - 1]
            step ^= low
        opens = nxt
    return count


__all__ = ["contract_advantage", "double_is_wise", "lead_card", "follow_card", "discard_card",
           "trex_card", "trick_risk"]
