"""The judgement of :class:`~scorekeeper.engine.bots.HeuristicBot`, after the tactics in the
source texts: which contract suits a hand, when to double, which card to lead, follow with or
discard, and which card to lay in Trex. Hands are masks; every function reads only the player's
own hand and what the table can see. The card-play functions take what a player sees as a
:class:`~.play.quick.TrickState` or :class:`~.play.quick.TrexState` and the legal cards as a
mask, and give a card index, so that the same judgement serves the deal objects and the quick
simulation (:mod:`.play.quick`).
"""

from __future__ import annotations

from typing import Iterable

from .cards import FULL_MASK, KING_OF_HEARTS, SUIT_MASKS, Card, Rank, Suit, indices_of, suit_ranks
from .contracts import Contract
from .play.quick import TrexState, TrickState
from .play.trex import GROWTH
from .rules import HouseRules

_KH = KING_OF_HEARTS.index
_LOW = (1 << 6) - 1  # ranks 2..7
_PROTECTION = (1 << 7) - 1  # ranks 2..8
#: Average of :func:`trick_risk` over random hands (measured once over 80,000 hands).
_AVERAGE_RISK = 1.7


_SPADES, _HEARTS, _DIAMONDS, _CLUBS = SUIT_MASKS
_QUEEN = Rank.QUEEN.value
_HEARTS_SUIT = Suit.HEARTS.value
_DIAMONDS_SUIT = Suit.DIAMONDS.value


def _lengths(hand: int) -> list[int]:
    return [
        (hand & _SPADES).bit_count(),
        (hand & _HEARTS).bit_count(),
        (hand & _DIAMONDS).bit_count(),
        (hand & _CLUBS).bit_count(),
    ]


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


def _king_of_hearts(hand: int, risk: float | None = None) -> float:
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
    if ace_alone:
        return -30.0
    return -10.0 - 5 * ((trick_risk(hand) if risk is None else risk) - _AVERAGE_RISK)


def _queens(hand: int, risk: float) -> float:
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
    return value - 6.0 * (risk - _AVERAGE_RISK)


def _diamonds(hand: int, value: int, risk: float) -> float:
    ranks = suit_ranks(hand, Suit.DIAMONDS)
    lows = (ranks & _LOW).bit_count()
    expected = 3.25 + 0.6 * (risk - _AVERAGE_RISK)
    expected += _high_card_risk(ranks) - 0.3 * lows
    if ranks.bit_count() >= 4 and not min(_lengths(hand)) <= 1:
        expected += 0.5
    return value * (expected - 3.25)


def _collections(value: int, risk: float) -> float:
    return value * 1.2 * (risk - _AVERAGE_RISK)


_JACK_DISTANCE = tuple(abs(index % 13 - Rank.JACK) for index in range(52))


def _trex(hand: int) -> float:
    distance = 0
    rest = hand
    while rest:
        low = rest & -rest
        distance += _JACK_DISTANCE[low.bit_length() - 1]
        rest ^= low
    value = (51 - distance) * 5.5
    for suit in range(4):
        ranks = suit_ranks(hand, suit)
        if not ranks:
            value -= 20.0
        elif ranks == 1 << Rank.JACK:
            value -= 10.0
    return value


def contract_advantage(
    hand: int, contract: Contract, rules: HouseRules, risk: float | None = None
) -> float:
    """Roughly how many points better than an even share this hand expects in *contract*.
    *risk*, when given, is the hand's :func:`trick_risk`, which several contracts weigh."""
    swap = rules.swap_diamonds_collections
    if contract is Contract.KING_OF_HEARTS:
        return _king_of_hearts(hand, risk)
    if contract is Contract.TREX:
        return _trex(hand)
    if risk is None:
        risk = trick_risk(hand)
    if contract is Contract.QUEENS:
        return _queens(hand, risk)
    if contract is Contract.DIAMONDS:
        return _diamonds(hand, -15 if swap else -10, risk)
    return _collections(-10 if swap else -15, risk)


def contract_advantages(
    hand: int,
    contracts: Iterable[Contract],
    rules: HouseRules,
) -> dict[Contract, float]:
    """:func:`contract_advantage` of each of the *contracts*, the hand's risk weighed once."""
    risk = trick_risk(hand)
    return {c: contract_advantage(hand, c, rules, risk) for c in contracts}


def double_is_wise(hand: int, card: Card) -> bool:
    """Double the K♥ with five hearts, or three or four with a short suit; a queen with three
    or more lower cards of its suit, two of them 8 or lower."""
    if card.index == _KH:
        return _king_of_hearts(hand) > 0
    ranks = suit_ranks(hand, card.suit)
    below = ranks & ((1 << Rank.QUEEN) - 1)
    return below.bit_count() >= 3 and (below & _PROTECTION).bit_count() >= 2


# --- trick play ------------------------------------------------------------------------------
# Each function goes through the legal cards in index order and keeps the first best one.


def trick_index(state: TrickState, legal: int) -> int:
    """Which card to play: lead, follow suit or discard."""
    if not state.count:
        return lead_index(state, legal)
    if legal & SUIT_MASKS[state.led]:
        return follow_index(state, legal)
    return discard_index(state, legal)


def _penalty_weight(state: TrickState, index: int) -> float:
    rank = index % 13
    weight = 0.0
    if index == _KH and state.king_of_hearts:
        weight += 100.0
    if rank == _QUEEN and state.queens:
        weight += 30.0 + (10.0 if state.doubled >> index & 1 else 0.0)
    if index // 13 == _DIAMONDS_SUIT and state.diamonds:
        weight += 10.0
    return weight + rank * 0.1


def _heaviest(state: TrickState, cards: int) -> int:
    """The card of *cards* that costs most to take (the first in index order of those that
    cost as much)."""
    return max(indices_of(cards), key=lambda index: _penalty_weight(state, index))


def _lightest(state: TrickState, cards: int) -> int:
    """The card of *cards* that costs least to take (the first in index order of those that
    cost as little)."""
    return min(indices_of(cards), key=lambda index: _penalty_weight(state, index))


def _highest_rank(cards: int) -> int:
    """The card of *cards* with the highest rank (of equal ranks, the first suit's)."""
    best, top = -1, -1
    while cards:
        low = cards & -cards
        cards ^= low
        index = low.bit_length() - 1
        if index % 13 > top:
            best, top = index, index % 13
    return best


def _partner_winning(state: TrickState) -> bool:
    return state.partnership and state.best_seat == (state.seat + 2) % 4


#: ``rank * 0.01``, ``rank * 0.05`` and ``min(n, 4) * 1.0``, worked out once (the same floats).
_HUNDREDTHS = tuple(rank * 0.01 for rank in range(13))
_TWENTIETHS = tuple(rank * 0.05 for rank in range(13))
_UP_TO_FOUR = tuple(min(n, 4) * 1.0 for n in range(14))


def lead_index(state: TrickState, legal: int) -> int:
    """Lead low from where higher cards are still out; force the K♥ out with hearts; with the
    K♥, shorten the other suits."""
    hand = state.hands[state.seat]
    unseen = FULL_MASK ^ state.played ^ hand
    penalty = state.penalty
    king_contract = state.king_of_hearts
    holds_king = hand >> _KH & 1
    king_out = unseen >> _KH & 1
    lengths = _lengths(hand) if king_contract and holds_king else None
    best, best_value = -1, 0.0
    for suit in range(4):  # suit by suit, each card in index order
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        out = unseen & SUIT_MASKS[suit]
        bonus = 0.0
        if king_contract and out:
            if holds_king:
                bonus = (4 - lengths[suit]) * 0.5 if suit != _HEARTS_SUIT else -1  # type: ignore[index]
            elif king_out and suit == _HEARTS_SUIT:
                bonus = 1.5
        base = suit * 13
        while cards:
            low = cards & -cards
            cards ^= low
            index = low.bit_length() - 1
            if not out:
                value = -10.0 - (5.0 if low & penalty else 0.0) - _HUNDREDTHS[index - base]
            else:
                higher = (out >> index + 1).bit_count()
                value = _UP_TO_FOUR[higher] - _TWENTIETHS[index - base]
                if low & penalty:
                    value += 1.0 if higher >= 2 else -3.0
                if bonus:
                    value += bonus
            if best < 0 or value > best_value:
                best, best_value = index, value
    return best


def follow_index(state: TrickState, legal: int) -> int:
    """Duck with the highest card that loses, dumping a penalty card under the winner; when
    forced to win, win last with the highest safe card, else stay low. *legal* are cards of
    the suit led."""
    best = state.best_rank
    penalty = state.penalty
    below = legal & ((1 << (state.led * 13 + best)) - 1)
    last = state.count == 3
    if below:
        dumps = below & penalty
        if dumps and not _partner_winning(state):
            return _heaviest(state, dumps)
        clean = not state.trick & penalty
        if last and clean and not state.collections:
            safe = legal & ~penalty
            if safe and (safe.bit_length() - 1) % 13 > best:
                return safe.bit_length() - 1
        return below.bit_length() - 1
    safe = legal & ~penalty or legal
    if last:
        return safe.bit_length() - 1
    return (safe & -safe).bit_length() - 1


def discard_index(state: TrickState, legal: int) -> int:
    """Unable to follow: dump the costliest penalty card, else shed a high card from a short
    suit (to a partner who is winning, keep the penalty cards)."""
    penalty = state.penalty
    if _partner_winning(state):
        safe = legal & ~penalty
        if safe:
            return _highest_rank(safe)
        return _lightest(state, legal)
    dumps = legal & penalty
    if dumps:
        return _heaviest(state, dumps)
    lengths = _lengths(state.hands[state.seat])
    best, best_value = -1, 0.0
    while legal:
        low = legal & -legal
        legal ^= low
        index = low.bit_length() - 1
        suit, rank = divmod(index, 13)
        value = rank - 0.5 * lengths[suit]
        if best < 0 or value > best_value:
            best, best_value = index, value
    return best


# --- Trex ------------------------------------------------------------------------------------
def trex_index(state: TrexState, legal: int) -> int:
    """Play the cards that open the player's own next cards, then those that open nothing
    (aces, 2s), and least of all those that open cards for the others; when giving cards away,
    stay in the suit held longest. In partnership, a 2 the partner showed is no gift."""
    seat = state.seat
    hand = state.hands[seat]
    partner = (seat + 2) % 4
    friend = state.revealed[partner] & state.hands[partner] if state.partnership else 0
    lengths = _lengths(hand)
    mine = hand | friend
    others = ~hand & ~friend
    best, best_score, best_length = -1, 0.0, 0
    while legal:
        low = legal & -legal
        legal ^= low
        index = low.bit_length() - 1
        opens = GROWTH[index]
        own = (opens & mine).bit_count()
        gifts = (opens & others).bit_count()
        score = 2.0 * own - 1.5 * gifts + 0.3 * _chain(hand, index)
        length = lengths[index // 13]
        if best < 0 or score > best_score or (score == best_score and length > best_length):
            best, best_score, best_length = index, score, length
    return best


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


__all__ = [
    "contract_advantage",
    "contract_advantages",
    "double_is_wise",
    "trick_index",
    "lead_index",
    "follow_index",
    "discard_index",
    "trex_index",
    "trick_risk",
]
