"""What trick deals and Trex deals share: hands as masks, the history, seats' labels."""

from __future__ import annotations

from typing import Iterable, Sequence

from ..cards import CARDS, Card, FULL_MASK, cards_of, mask_of
from ..errors import RuleError
from ..rules import HouseRules
from ..seats import Seat
from .records import CardPlayed, Record

HandInput = int | Iterable[Card]


def seat_label(seat: int) -> str:
    return f"Seat {seat}"


def hands_to_masks(hands: Sequence[HandInput], *, full_deck: bool) -> list[int]:
    """Four hands (masks or cards) as masks, checked: disjoint, equal sizes, all 52 if asked."""
    if len(hands) != 4:
        raise RuleError(f"A deal needs four hands, one per seat; {len(hands)} were given.")
    masks = [h if isinstance(h, int) else mask_of(h) for h in hands]
    seen = 0
    for seat, mask in enumerate(masks):
        if mask & ~FULL_MASK or mask < 0:
            raise RuleError(f"The hand of {seat_label(seat)} is not a set of cards.")
        both = seen & mask
        if both:
            raise RuleError(f"The {cards_of(both)[0].pretty} is dealt to two players.")
        seen |= mask
    sizes = {m.bit_count() for m in masks}
    if len(sizes) != 1 or 0 in sizes:
        raise RuleError("Every player must be dealt the same number of cards.")
    if full_deck and seen != FULL_MASK:
        raise RuleError("This contract is played with the whole pack: 13 cards to each player.")
    return masks


class DealBase:
    """Hands, dealer, rules and the append-only history of one deal."""

    __slots__ = ("_hands", "_dealer", "rules", "_history")

    def __init__(self, hands: list[int], dealer: int, rules: HouseRules):
        if dealer not in (0, 1, 2, 3):
            raise RuleError(f"The dealer must be a seat from 0 to 3, not {dealer!r}.")
        self._hands = hands
        self._dealer = dealer
        self.rules = rules
        self._history: list[Record] = []

    @property
    def dealer(self) -> Seat:
        """The King, who deals and starts."""
        return Seat(self._dealer)

    @property
    def history(self) -> tuple[Record, ...]:
        """Everything that happened so far, in order."""
        return tuple(self._history)

    @property
    def history_length(self) -> int:
        return len(self._history)

    def hand_mask(self, seat: int) -> int:
        """The cards *seat* still holds, as a mask."""
        return self._hands[seat]

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards *seat* still holds, in index order."""
        return cards_of(self._hands[seat])

    def cards_left(self, seat: int) -> int:
        """How many cards *seat* still holds (known to everyone at the table)."""
        return self._hands[seat].bit_count()

    def holds(self, seat: int, card: Card) -> bool:
        return bool(self._hands[seat] >> card.index & 1)

    @staticmethod
    def _check_card(card: object) -> Card:
        if not isinstance(card, Card) or CARDS[card.index] is not card:
            raise RuleError(f"{card!r} is not a card.")
        return card

    # -- playing a card: each deal type gives verify_play and play_index
    def verify_play(self, card: Card) -> None:
        raise NotImplementedError

    def play_index(self, index: int) -> CardPlayed:
        raise NotImplementedError

    def can_play(self, card: Card) -> bool:
        """Whether the current player may play *card* now."""
        try:
            self.verify_play(card)
        except RuleError:
            return False
        return True

    def play(self, card: Card) -> CardPlayed:
        """The current player plays *card*; returns the record added to the history."""
        self.verify_play(card)
        return self.play_index(card.index)
