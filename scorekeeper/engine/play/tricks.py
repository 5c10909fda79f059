"""A trick-taking deal: one negative contract, or several combined (Complex, Combination).

The deal has two phases. First, when doubling is on, each holder of the K♥ (in a deal with King
of Hearts) and of a queen (in a deal with Queens) says in turn from the dealer, card by card,
whether they double it. Then the dealer leads to the first trick; players must follow suit; the
highest card of the suit led wins and its winner leads next. There are no trumps.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..cards import BITS, CARDS, QUEENS_MASK, SUIT_MASKS, Card, Suit, cards_of, indices_of
from ..contracts import ALL_CONTRACTS, Contract
from ..errors import IllegalPlay, RuleError
from ..rules import HouseRules
from ..seats import Seat
from .base import DealBase, HandInput, hands_to_masks, seat_label
from .records import Action, CardPlayed, DoubleChoice, DoubleDecision, TrickWon
from .redeal import is_sweep
from .tally import contract_card_points, final_points, queens_split, trick_card_points, trick_result
from .trickplay import KH_BIT, penalty_mask, trick_play

_SEATS = tuple(Seat)
_ORDERS = tuple(tuple((dealer + k) % 4 for k in range(4)) for dealer in range(4))
_DEFAULT_RULES = HouseRules()

#: The cards their holder may double, per contract.
DOUBLABLE_MASKS: dict[Contract, int] = {
    Contract.KING_OF_HEARTS: KH_BIT,
    Contract.QUEENS: QUEENS_MASK,
}
_PENALTY_WORDS = {
    Contract.KING_OF_HEARTS: "the K♥",
    Contract.DIAMONDS: "a diamond",
    Contract.QUEENS: "a queen",
}


#: What the tally reads of a deal that is over (see :meth:`TrickDeal._taken_cards`).
Counted = tuple[
    Sequence[Contract], HouseRules, list[int], list[int], dict[int, int], dict[int, int]
]


def trick_contracts(contracts: Contract | Iterable[Contract]) -> tuple[Contract, ...]:
    """The contracts of a trick deal in the scoresheet's order; Trex and repeats are refused."""
    if isinstance(contracts, Contract):
        contracts = (contracts,)
    found = tuple(Contract(c) for c in contracts)
    if not found:
        raise RuleError("A deal plays at least one contract.")
    if Contract.TREX in found:
        raise RuleError("Trex is not a trick-taking contract and is always played alone.")
    if len(set(found)) != len(found):
        raise RuleError("A contract cannot be played twice in the same deal.")
    return tuple(c for c in ALL_CONTRACTS if c in found)


def doubling_mask(contracts: Sequence[Contract], rules: HouseRules) -> int:
    """The cards that may be doubled in a deal of these contracts under these rules."""
    if not rules.doubling:
        return 0
    mask = 0
    for contract in contracts:
        mask |= DOUBLABLE_MASKS.get(contract, 0)
    return mask


def doubling_queue(
    hands: Sequence[int], dealer: int, contracts: Sequence[Contract], rules: HouseRules
) -> list[tuple[int, int]]:
    """The doubling decisions to take before the first lead, in turn from the dealer:
    (seat, card index), a seat's cards in index order."""
    doublable = doubling_mask(contracts, rules)
    queue: list[tuple[int, int]] = []
    if doublable:
        for seat in _ORDERS[dealer]:
            held = hands[seat] & doublable
            while held:
                low = held & -held
                queue.append((seat, low.bit_length() - 1))
                held ^= low
    return queue


class TrickDeal(DealBase):
    """One trick-taking deal, played card by card."""

    __slots__ = (
        "contracts",
        "_penalty",
        "_play",
        "_queue",
        "_queue_pos",
        "_doubled",
        "_total",
        "_number",
        "_leader",
        "_current",
        "_trick",
        "_led",
        "_best_rank",
        "_best_seat",
        "_taken",
        "_tricks",
        "_lead_of",
        "_played",
        "_over",
    )

    def __init__(
        self,
        hands: Sequence[HandInput],
        dealer: int,
        contracts: Contract | Iterable[Contract],
        rules: HouseRules | None = None,
        *,
        stop_early: bool = True,
    ):
        """*stop_early*: a King of Hearts deal played alone ends when the K♥ is taken."""
        rules = rules or _DEFAULT_RULES
        super().__init__(hands_to_masks(hands, full_deck=False), dealer, rules)
        self.contracts = trick_contracts(contracts)
        self._penalty = penalty_mask(self.contracts)
        self._play = trick_play(self.contracts, rules, stop_early=stop_early)
        self._queue = doubling_queue(self._hands, dealer, self.contracts, rules)
        self._queue_pos = 0
        self._doubled: dict[int, int] = {}
        self._total = self._hands[0].bit_count()
        self._number = 0
        self._leader = self._current = dealer
        self._trick: list[int] = []
        self._led = -1
        self._best_rank = self._best_seat = -1
        self._taken = [0, 0, 0, 0]
        self._tricks = [0, 0, 0, 0]
        self._lead_of: dict[int, int] = {}
        self._played = 0
        self._over = False

    # --- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"doubling"``, ``"play"`` or ``"over"``."""
        if self._over:
            return "over"
        return "doubling" if self._queue_pos < len(self._queue) else "play"

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def current_player(self) -> Seat | None:
        """Who acts next: the seat deciding on a double, or the seat to play; None when over."""
        if self._over:
            return None
        if self._queue_pos < len(self._queue):
            return _SEATS[self._queue[self._queue_pos][0]]
        return _SEATS[self._current]

    @property
    def pending_double(self) -> Card | None:
        """In the doubling phase, the card whose holder must now say whether to double it."""
        if self._queue_pos < len(self._queue):
            return CARDS[self._queue[self._queue_pos][1]]
        return None

    @property
    def doubled(self) -> dict[Card, Seat]:
        """The doubled cards and who doubled them (their holders)."""
        return {CARDS[i]: _SEATS[s] for i, s in self._doubled.items()}

    @property
    def trick_number(self) -> int:
        """The trick being played, from 0."""
        return self._number

    @property
    def leader(self) -> Seat:
        """Who led (or leads) the current trick."""
        return _SEATS[self._leader]

    @property
    def led_suit(self) -> Suit | None:
        return Suit(self._led) if self._led >= 0 else None

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The cards played to the current trick so far, with who played them."""
        return tuple((_SEATS[(self._leader + k) % 4], CARDS[i]) for k, i in enumerate(self._trick))

    @property
    def winning_seat(self) -> Seat | None:
        """Who is winning the current trick so far."""
        return _SEATS[self._best_seat] if self._trick else None

    @property
    def played_mask(self) -> int:
        """Every card played so far, current trick included."""
        return self._played

    @property
    def penalty_mask(self) -> int:
        """The cards that cost points in this deal."""
        return self._penalty

    def taken_mask(self, seat: int) -> int:
        return self._taken[seat]

    def taken(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._taken[seat])

    def tricks_taken(self, seat: int) -> int:
        return self._tricks[seat]

    # --- doubling -------------------------------------------------------------------------
    def verify_double(self, card: Card, doubled: bool = True) -> None:
        """Raise :class:`IllegalPlay` unless the current player may now decide on *card*."""
        card = self._check_card(card)
        if not self.rules.doubling:
            raise IllegalPlay("Doubling is off in this game.")
        if not doubling_mask(self.contracts, self.rules) >> card.index & 1:
            raise IllegalPlay(
                f"The {card.pretty} cannot be doubled in this deal; only the K♥ in "
                "King of Hearts and the queens in Queens can."
            )
        if self._played or self._over:
            raise IllegalPlay("Doubling is only possible before the first lead.")
        if any(i == card.index for _, i in self._queue[: self._queue_pos]):
            raise IllegalPlay(f"Whether to double the {card.pretty} has already been decided.")
        if self._queue_pos >= len(self._queue):
            raise IllegalPlay(f"Nobody holds the {card.pretty} in this deal.")
        seat, index = self._queue[self._queue_pos]
        if index != card.index:
            raise IllegalPlay(
                f"It is {seat_label(seat)}'s turn to say whether to double the "
                f"{CARDS[index].pretty}."
            )

    def can_double(self, card: Card, doubled: bool = True) -> bool:
        try:
            self.verify_double(card, doubled)
        except RuleError:
            return False
        return True

    def double(self, card: Card, doubled: bool = True) -> DoubleDecision:
        """Its holder doubles *card* (or, with ``doubled=False``, says they do not)."""
        self.verify_double(card, doubled)
        seat, index = self._queue[self._queue_pos]
        self._queue_pos += 1
        if doubled:
            self._doubled[index] = seat
        record = DoubleDecision(_SEATS[seat], CARDS[index], bool(doubled))
        self._history.append(record)
        return record

    # --- playing --------------------------------------------------------------------------
    def legal_mask(self) -> int:
        """The cards the current player may play, as a mask (0 outside the play phase)."""
        if self._over or self._queue_pos < len(self._queue):
            return 0
        return self._play.legal(
            self._hands[self._current], SUIT_MASKS[self._led] if self._led >= 0 else 0
        )

    def legal_plays(self) -> list[Card]:
        """The cards the current player may play, in index order."""
        return list(cards_of(self.legal_mask()))

    def legal_actions(self) -> list[Action]:
        """What the current player may do: doubling choices, or the cards they may play."""
        card = self.pending_double
        if card is not None:
            return [DoubleChoice(card, True), DoubleChoice(card, False)]
        return list(self.legal_plays())

    def apply(self, action: Action) -> Any:
        """Do one action from :meth:`legal_actions`."""
        if isinstance(action, DoubleChoice):
            return self.double(action.card, action.double)
        return self.play(action)  # type: ignore[arg-type]

    def verify_play(self, card: Card) -> None:
        """Raise :class:`IllegalPlay` with the reason unless *card* may be played now."""
        card = self._check_card(card)
        if self._over:
            raise IllegalPlay("The deal is over; no more cards are played.")
        if self._queue_pos < len(self._queue):
            seat, index = self._queue[self._queue_pos]
            raise IllegalPlay(
                f"Before the first lead, {seat_label(seat)} must say whether to "
                f"double the {CARDS[index].pretty}."
            )
        seat = self._current
        if not self._hands[seat] >> card.index & 1:
            raise IllegalPlay(f"{seat_label(seat)} does not hold the {card.pretty}.")
        if not self.legal_mask() >> card.index & 1:
            raise IllegalPlay(self._why_illegal(seat))

    def _why_illegal(self, seat: int) -> str:
        who = seat_label(seat)
        if self._led < 0:
            return f"A heart may not be led while {who} holds cards of other suits."
        if self._hands[seat] & SUIT_MASKS[self._led]:
            return f"{who} must follow suit and play a {Suit(self._led).file_name[:-1]}."
        words = " or ".join(w for c, w in _PENALTY_WORDS.items() if c in self.contracts)
        return f"{who} cannot follow suit and must discard a penalty card ({words})."

    def play_index(self, index: int) -> CardPlayed:
        """Play the card with this index, which the caller knows to be legal (fast path)."""
        seat = self._current
        bit = BITS[index]
        self._hands[seat] ^= bit
        self._played |= bit
        record = CardPlayed(_SEATS[seat], CARDS[index])
        self._history.append(record)
        suit, rank = divmod(index, 13)
        if self._led < 0:
            self._led, self._best_rank, self._best_seat = suit, rank, seat
        elif suit == self._led and rank > self._best_rank:
            self._best_rank, self._best_seat = rank, seat
        self._trick.append(index)
        if len(self._trick) == 4:
            self._finish_trick()
        else:
            self._current = (seat + 1) % 4
        return record

    def _finish_trick(self) -> None:
        winner, leader = self._best_seat, self._leader
        mask = 0
        for index in self._trick:
            mask |= BITS[index]
        self._taken[winner] |= mask
        self._tricks[winner] += 1
        for index in indices_of(mask & (KH_BIT | QUEENS_MASK)):
            self._lead_of[index] = leader
        self._history.append(
            TrickWon(
                self._number, _SEATS[leader], _SEATS[winner], tuple(CARDS[i] for i in self._trick)
            )
        )
        self._number += 1
        self._trick = []
        self._led = -1
        self._leader = self._current = winner
        if self._number == self._total or mask & self._play.stop:
            self._over = True

    # --- outcome --------------------------------------------------------------------------
    def _require_over(self) -> None:
        if not self._over:
            raise RuleError("The deal is not over yet.")

    def _taken_cards(self) -> Counted:
        """What the tally counts once the deal is over: the contracts, the rules, the cards and
        tricks each seat took, the doubled cards and who led to each K♥ and queen."""
        self._require_over()
        return self.contracts, self.rules, self._taken, self._tricks, self._doubled, self._lead_of

    def result(self) -> dict[str, Any]:
        """The deal's result as a file-format deal dict (GAME_FORMAT.md)."""
        return trick_result(self._dealer, *self._taken_cards())

    def contract_card_points(self) -> dict[Contract, tuple[int, int, int, int]]:
        """Each contract's points counted card by card from the cards taken, before sweeps and
        ``reverse_scores`` (see :func:`.tally.contract_final_points`)."""
        return contract_card_points(*self._taken_cards(), self._dealer)

    def card_points(self, *, sweep_kept: bool = False) -> list[int]:
        """The four seats' points counted card by card from the cards taken (a sweep scores
        nothing unless the table kept it, *sweep_kept*, and Queens split two and two nothing
        under ``split_queens_replay``; ``reverse_scores`` negates)."""
        points = trick_card_points(*self._taken_cards(), self._dealer)
        swept = (
            not sweep_kept
            and self.rules.sweep_replay is not None
            and is_sweep(self.result(), self.rules)
        )
        swept = swept or queens_split(self.contracts, self._taken, self.rules)
        return final_points(points, swept, self.rules)

    def scores(self, *, sweep_kept: bool = False) -> list[int]:
        """The same as :meth:`card_points`."""
        return self.card_points(sweep_kept=sweep_kept)
