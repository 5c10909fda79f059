"""Whole deals played on plain ints by bots that choose on masks, for simulations and advisors.

:class:`~.tricks.TrickDeal` and :class:`~.trex.TrexDeal` check every card, keep a history and
answer any question about the deal; that is what a person's entry or an observer needs, and it
costs more than the bots' own thinking. Here a deal is a few ints and lists: the same rules
(who may play what, who wins a trick, who goes out in Trex), no history. A bot is asked only when
it has a choice (two legal cards or more), as :func:`~scorekeeper.engine.simulate.play_out` asks
it, through ``pick_trick(state, legal)`` or ``pick_trex(state, legal)``: *legal* is a mask of the
cards it may play, *state* what the table can see (:class:`TrickState`, :class:`TrexState`), and
the answer is a card index. The same bots driving the deal objects make the same choices; the
tests hold both ways to the same games.
"""

from __future__ import annotations

from typing import Mapping, NamedTuple, Protocol, Sequence

from ..cards import BITS, CARDS, JACKS_MASK, SUIT_MASKS, TWOS_MASK
from ..contracts import Contract
from ..errors import IllegalPlay
from ..rules import HouseRules
from .trex import GROWTH
from .trickplay import KH_BIT, PENALTY_MASKS, penalty_mask, trick_play

QUEENS_BITS = PENALTY_MASKS[Contract.QUEENS]
CAPTURE_MASK = KH_BIT | QUEENS_BITS
_KH, _DI, _QU, _CO = (
    Contract.KING_OF_HEARTS,
    Contract.DIAMONDS,
    Contract.QUEENS,
    Contract.COLLECTIONS,
)


class TrickState:
    """What a player sees of a trick deal when it is their turn to play.

    ``hands`` holds the four hands as masks; a bot reads only ``hands[seat]``, its own. The
    current trick is ``trick`` (a mask of ``count`` cards); ``led`` is the suit led (-1 before
    the lead), ``best_rank`` and ``best_seat`` the highest card of that suit so far and who
    played it. ``played`` holds every card played, the current trick's included."""

    __slots__ = (
        "seat",
        "hands",
        "played",
        "trick",
        "count",
        "led",
        "best_rank",
        "best_seat",
        "contracts",
        "penalty",
        "doubled",
        "partnership",
        "king_of_hearts",
        "queens",
        "diamonds",
        "collections",
    )

    def __init__(
        self, hands: list[int], contracts: Sequence[Contract], rules: HouseRules, doubled: int
    ):
        self.seat = 0
        self.hands = hands
        self.played = self.trick = self.count = 0
        self.led = self.best_rank = self.best_seat = -1
        self.contracts = tuple(contracts)
        self.penalty = penalty_mask(self.contracts)
        self.doubled = doubled  # the doubled cards, as a mask
        self.partnership = rules.partnership
        self.king_of_hearts = _KH in self.contracts
        self.queens = _QU in self.contracts
        self.diamonds = _DI in self.contracts
        self.collections = _CO in self.contracts

    @classmethod
    def of_deal(cls, deal) -> TrickState:  # noqa: ANN001 - a TrickDeal
        """The state of a :class:`~.tricks.TrickDeal` at its current player's turn."""
        doubled = 0
        for card in deal.doubled:
            doubled |= card.bit
        state = cls([deal.hand_mask(s) for s in range(4)], deal.contracts, deal.rules, doubled)
        state.seat = int(deal.current_player or 0)
        state.played = deal.played_mask
        for seat, card in deal.current_trick:
            state.trick |= card.bit
            state.count += 1
            if state.led < 0:
                state.led = int(card.suit)
            if card.suit == state.led and card.rank > state.best_rank:
                state.best_rank, state.best_seat = int(card.rank), int(seat)
        return state


class TrexState:
    """What a player sees of a Trex deal when it is their turn: the hands (a bot reads only
    its own, ``hands[seat]``), the cards the layout takes now, and under partnership the 2s
    each seat laid face up (``revealed``; those still held are ``revealed[s] & hands[s]``)."""

    __slots__ = ("seat", "hands", "playable", "revealed", "partnership")

    def __init__(self, hands: list[int], partnership: bool):
        self.seat = 0
        self.hands = hands
        self.playable = JACKS_MASK
        self.revealed = [0, 0, 0, 0]
        self.partnership = partnership

    @classmethod
    def of_deal(cls, deal) -> TrexState:  # noqa: ANN001 - a TrexDeal
        """The state of a :class:`~.trex.TrexDeal` at its current player's turn."""
        state = cls([deal.hand_mask(s) for s in range(4)], deal.rules.partnership)
        state.seat = int(deal.current_player or 0)
        state.playable = deal.playable_mask
        state.revealed = [deal.revealed_mask(s) for s in range(4)]
        return state


class MaskPlayer(Protocol):
    """A bot that chooses its card on masks."""

    def pick_trick(self, state: TrickState, legal: int) -> int:
        """The index of the card to play, one of the two or more in *legal*."""
        ...

    def pick_trex(self, state: TrexState, legal: int) -> int:
        """The index of the card to lay, one of the two or more in *legal*."""
        ...


class TrickOutcome(NamedTuple):
    """A trick deal played out: the cards and the number of tricks each seat took, and who led
    to each trick holding the K♥ or a queen (by card index)."""

    taken: list[int]
    tricks: list[int]
    lead_of: dict[int, int]


def _checked(seat: int, index: int, legal: int) -> int:
    """The card *index* seat *seat* chose, when it is one of the *legal* ones; else refused."""
    if 0 <= index < 52 and legal >> index & 1:
        return index
    card = CARDS[index].pretty if 0 <= index < 52 else repr(index)
    raise IllegalPlay(f"Seat {seat} chose the {card}, which is not a card they may play now.")


def note_leads(trick: int, leader: int, lead_of: dict[int, int]) -> None:
    """Note who led to the K♥ and the queens in a trick."""
    captured = trick & CAPTURE_MASK
    while captured:
        low = captured & -captured
        lead_of[low.bit_length() - 1] = leader
        captured ^= low


def take_trick(
    trick: int,
    winner: int,
    leader: int,
    taken: list[int],
    tricks: list[int],
    lead_of: dict[int, int],
) -> int:
    """Give the trick to its winner, noting who led to any K♥ or queen in it; return the winner."""
    taken[winner] |= trick
    tricks[winner] += 1
    note_leads(trick, leader, lead_of)
    return winner


def play_tricks(
    hands: Sequence[int],
    dealer: int,
    contracts: Sequence[Contract],
    rules: HouseRules,
    doubled: Mapping[int, int],
    bots: Sequence[MaskPlayer],
) -> TrickOutcome:
    """Play a trick deal (after doubling: *doubled* maps each doubled card to its holder) with
    one bot per seat, as :class:`~.tricks.TrickDeal` would with the same bots."""
    hands = list(hands)
    doubled_mask = 0
    for index in doubled:
        doubled_mask |= BITS[index]
    state = TrickState(hands, contracts, rules, doubled_mask)
    lead_mask, discard_mask, stop = trick_play(state.contracts, rules)
    picks = [bot.pick_trick for bot in bots]
    taken = [0, 0, 0, 0]
    tricks = [0, 0, 0, 0]
    lead_of: dict[int, int] = {}
    leader = dealer
    played = 0
    for _ in range(hands[0].bit_count()):
        seat = leader
        trick = 0
        suit = led = best_rank = best_seat = -1
        for count in range(4):
            hand = hands[seat]
            if count:  # TrickPlay.legal, inline
                legal = hand & suit or hand & discard_mask or hand
            else:
                legal = hand & lead_mask or hand
            if legal & (legal - 1):
                state.seat, state.played, state.trick, state.count = seat, played, trick, count
                state.led, state.best_rank, state.best_seat = led, best_rank, best_seat
                index = _checked(seat, picks[seat](state, legal), legal)
                bit = BITS[index]
            else:
                bit = legal
                index = bit.bit_length() - 1
            hands[seat] = hand ^ bit
            played |= bit
            trick |= bit
            if count:
                if bit & suit and index % 13 > best_rank:
                    best_rank, best_seat = index % 13, seat
            else:
                led, best_rank = divmod(index, 13)
                suit = SUIT_MASKS[led]
                best_seat = seat
            seat = (seat + 1) & 3
        leader = take_trick(trick, best_seat, leader, taken, tricks, lead_of)
        if trick & stop:
            break
    return TrickOutcome(taken, tricks, lead_of)


def play_trex(
    hands: Sequence[int], dealer: int, rules: HouseRules, bots: Sequence[MaskPlayer]
) -> list[int]:
    """Play a Trex deal with one bot per seat; return the finishing order, as
    :class:`~.trex.TrexDeal` would with the same bots."""
    hands = list(hands)
    state = TrexState(hands, rules.partnership)
    picks = [bot.pick_trex for bot in bots]
    playable = JACKS_MASK
    order: list[int] = []
    seat = dealer
    turns = 0
    while True:
        hand = hands[seat]
        legal = hand & playable
        if legal:
            if legal & (legal - 1):
                state.seat, state.playable = seat, playable
                index = _checked(seat, picks[seat](state, legal), legal)
                bit = BITS[index]
            else:
                bit = legal
                index = bit.bit_length() - 1
            hand ^= bit
            hands[seat] = hand
            playable ^= bit | GROWTH[index]
            if not hand:
                order.append(seat)
                if len(order) == 3:
                    break
        turns += 1
        if turns == 4 and state.partnership:  # everyone's first turn: the 2s go face up
            state.revealed = [h & TWOS_MASK for h in hands]
        seat = (seat + 1) & 3
        while not hands[seat]:
            seat = (seat + 1) & 3
    order.append(6 - sum(order))
    return order


__all__ = [
    "MaskPlayer",
    "TrexState",
    "TrickOutcome",
    "TrickState",
    "note_leads",
    "play_trex",
    "play_tricks",
    "take_trick",
]
