"""Trex, the layout contract (RULES.md "Trex").

The dealer starts; at their turn a player must play a legal card if they have one, else pass.
Legal cards are the jacks and, in a suit whose jack is on the table, the card just above the top
of its row and the card just below its bottom. The first three players out take the first three
places; the one left is last.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import BITS, CARDS, JACKS_MASK, TWOS_MASK, Card, Rank, Suit, cards_of
from ..contracts import Contract
from ..errors import IllegalPlay, RuleError
from ..rules import HouseRules
from ..seats import Seat
from .base import DealBase, HandInput, hands_to_masks, seat_label
from .records import PASS, Action, CardPlayed, FinishedOut, Passed, PassTurn, TwosRevealed
from .tally import final_points, trex_card_points, trex_contract_points, trex_result

_SEATS = tuple(Seat)
_DEFAULT_RULES = HouseRules()


def _growth(index: int) -> int:
    """The cards that become playable once the card *index* is on the table."""
    suit, rank = divmod(index, 13)
    base = suit * 13
    if rank == Rank.JACK:
        return BITS[base + rank - 1] | BITS[base + rank + 1]
    if rank < Rank.JACK:
        return BITS[base + rank - 1] if rank > 0 else 0
    return BITS[base + rank + 1] if rank < Rank.ACE else 0


#: For each card index, what playing it opens.
GROWTH: tuple[int, ...] = tuple(_growth(i) for i in range(52))


class TrexDeal(DealBase):
    """One deal of Trex, played card by card."""

    __slots__ = ("_playable", "_current", "_order", "_turns", "_revealed", "_over")

    def __init__(self, hands: Sequence[HandInput], dealer: int, rules: HouseRules | None = None):
        rules = rules or _DEFAULT_RULES
        super().__init__(hands_to_masks(hands, full_deck=True), dealer, rules)
        self._playable = JACKS_MASK
        self._current = dealer
        self._order: list[int] = []
        self._turns = 0
        self._revealed = [0, 0, 0, 0]
        self._over = False

    # --- state ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def phase(self) -> str:
        return "over" if self._over else "play"

    @property
    def current_player(self) -> Seat | None:
        return None if self._over else _SEATS[self._current]

    @property
    def pending_double(self) -> None:
        """Nothing is doubled in Trex."""
        return None

    @property
    def finishing_order(self) -> tuple[Seat, ...]:
        """The seats out so far, first out first (all four once the deal is over)."""
        return tuple(_SEATS[s] for s in self._order)

    @property
    def playable_mask(self) -> int:
        """Every card that could be played to the layout now, whoever holds it."""
        return self._playable

    @property
    def played_mask(self) -> int:
        """The cards on the table."""
        held = 0
        for hand in self._hands:
            held |= hand
        return ((1 << 52) - 1) ^ held

    def row(self, suit: Suit) -> tuple[Rank, Rank] | None:
        """The lowest and highest rank of a suit's row on the table, or None before its jack."""
        ranks = (self.played_mask >> (13 * suit)) & 0x1FFF
        if not ranks:
            return None
        return Rank(((ranks & -ranks).bit_length() - 1)), Rank(ranks.bit_length() - 1)

    def revealed_mask(self, seat: int) -> int:
        """Partnership play: the 2s *seat* laid face up and still holds."""
        return self._revealed[seat] & self._hands[seat]

    def revealed(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.revealed_mask(seat))

    # --- actions --------------------------------------------------------------------------
    def legal_mask(self) -> int:
        if self._over:
            return 0
        return self._hands[self._current] & self._playable

    def legal_plays(self) -> list[Card]:
        """The cards the current player may play; empty when they must pass."""
        return list(cards_of(self.legal_mask()))

    def legal_actions(self) -> list[Action]:
        if self._over:
            return []
        plays: list[Action] = list(self.legal_plays())
        return plays or [PASS]

    def apply(self, action: Action) -> Any:
        if isinstance(action, PassTurn):
            return self.pass_turn()
        return self.play(action)  # type: ignore[arg-type]

    def verify_play(self, card: Card) -> None:
        card = self._check_card(card)
        if self._over:
            raise IllegalPlay("The deal is over; no more cards are played.")
        seat = self._current
        if not self._hands[seat] >> card.index & 1:
            raise IllegalPlay(f"{seat_label(seat)} does not hold the {card.pretty}.")
        if not self._playable >> card.index & 1:
            raise IllegalPlay(
                f"The {card.pretty} cannot be played yet: a card must be a jack or touch a card "
                "of its suit already on the table."
            )

    def play_index(self, index: int) -> CardPlayed:
        """Play the card with this index, which the caller knows to be legal (fast path)."""
        seat = self._current
        bit = BITS[index]
        self._hands[seat] ^= bit
        self._playable ^= bit | GROWTH[index]
        record = CardPlayed(_SEATS[seat], CARDS[index])
        self._history.append(record)
        if not self._hands[seat]:
            self._order.append(seat)
            self._history.append(FinishedOut(_SEATS[seat], len(self._order) - 1))
        self._advance()
        return record

    def verify_pass(self) -> None:
        if self._over:
            raise IllegalPlay("The deal is over; nobody passes.")
        if self.legal_mask():
            raise IllegalPlay(f"{seat_label(self._current)} can play a card and must play one.")

    def can_pass(self) -> bool:
        return not self._over and not self.legal_mask()

    def pass_turn(self) -> Passed:
        """The current player, who cannot play, passes."""
        self.verify_pass()
        record = Passed(_SEATS[self._current])
        self._history.append(record)
        self._advance()
        return record

    def _advance(self) -> None:
        self._turns += 1
        if self._turns == 4 and self.rules.partnership:
            self._reveal_twos()
        if len(self._order) == 3:
            last = next(s for s in range(4) if s not in self._order)
            self._order.append(last)
            self._history.append(FinishedOut(_SEATS[last], 3))
            self._over = True
            return
        seat = (self._current + 1) % 4
        while not self._hands[seat]:
            seat = (seat + 1) % 4
        self._current = seat

    def _reveal_twos(self) -> None:
        self._revealed = [hand & TWOS_MASK for hand in self._hands]
        self._history.append(TwosRevealed(tuple(cards_of(m) for m in self._revealed)))

    # --- outcome --------------------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """The deal's result as a file-format deal dict."""
        if not self._over:
            raise RuleError("The deal is not over yet.")
        return trex_result(self._dealer, self._order)

    def contract_card_points(self) -> dict[Contract, tuple[int, int, int, int]]:
        """The deal's points from the finishing order, before ``reverse_scores``."""
        self.result()  # raises unless the deal is over
        return trex_contract_points(self._order)

    def card_points(self) -> list[int]:
        """The four seats' points from the finishing order (``reverse_scores`` negates)."""
        self.result()  # raises unless the deal is over
        return final_points(trex_card_points(self._order), False, self.rules)

    def scores(self) -> list[int]:
        """The same as :meth:`card_points`."""
        return self.card_points()
