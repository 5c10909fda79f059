"""Where a game stands: whose kingdom it is, what the King has left, what may come next.

:class:`Progress` folds the deals of a game one by one. :meth:`Progress.check` says what is wrong
with a proposed next deal (as problems), and :meth:`Progress.add` records it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Sequence

from .contracts import ALL_CONTRACTS, NEGATIVE_CONTRACTS, Contract
from .errors import Problem
from .records import ANNOUNCED_FIRST, THROW_IN_REASONS, DealRecord, default_names
from .rules import HouseRules
from .scoring import uses_contracts

KINGDOMS = 4
#: The most deal rows a game holds, redeals included. A game is twenty deals (four kingdoms of
#: five contracts); a redeal (a K♥ request, a Trex throw-in, a misdeal, a sweep or split queens
#: replayed) adds a row that uses nothing up, and RULES.md sets no cap on them. A real night
#: sees a handful; 200 rows leaves room for 180, nine times the game itself, while keeping a
#: game's pages, exports and checks small whatever a file brings.
DEAL_LIMIT = 200
_CLOSED_REASON_CODES = {"kh-redeal": "kh_redeal_closed", "trex-twos": "trex_twos_closed"}
_OFF_REASON_CODES = {"kh-redeal": "kh_redeal_off", "trex-twos": "trex_twos_off"}


@dataclass
class Kingdom:
    king: int
    deals: list[int] = field(default_factory=list)  # indexes into the game's deals
    played: list[Contract] = field(default_factory=list)

    @property
    def is_complete(self) -> bool:
        return len(self.played) == len(ALL_CONTRACTS)

    @property
    def contracts_left(self) -> tuple[Contract, ...]:
        return tuple(c for c in ALL_CONTRACTS if c not in self.played)


class Progress:
    """The state of a game between deals."""

    def __init__(self, rules: HouseRules, first_king: int, names: Sequence[str] | None = None):
        self.rules = rules
        self.first_king = first_king
        self.names = tuple(names or default_names())
        self.kingdoms: list[Kingdom] = []
        self.count = 0

    @classmethod
    def of(
        cls,
        rules: HouseRules,
        first_king: int,
        deals: Sequence[DealRecord],
        names: Sequence[str] | None = None,
    ) -> Progress:
        progress = cls(rules, first_king, names)
        for deal in deals:
            progress.add(deal)
        return progress

    # -- where the game stands
    @property
    def is_over(self) -> bool:
        return len(self.kingdoms) == KINGDOMS and self.kingdoms[-1].is_complete

    @property
    def current(self) -> Kingdom | None:
        """The kingdom under way, or None between kingdoms."""
        if self.kingdoms and not self.kingdoms[-1].is_complete:
            return self.kingdoms[-1]
        return None

    @property
    def kings_so_far(self) -> tuple[int, ...]:
        return tuple(k.king for k in self.kingdoms)

    def next_kings(self) -> tuple[int, ...]:
        """Who may deal the next deal: the current King, or who may be the next King."""
        if self.is_over:
            return ()
        if self.current is not None:
            return (self.current.king,)
        if not self.kingdoms:
            return (self.first_king,)
        if self.rules.rotation == "table-picks":
            return tuple(s for s in range(4) if s not in self.kings_so_far)
        return ((self.kingdoms[-1].king + 1) % 4,)

    @property
    def king(self) -> int | None:
        """The King of the next deal when there is only one choice."""
        kings = self.next_kings()
        return kings[0] if len(kings) == 1 else None

    def contracts_left(self) -> tuple[Contract, ...]:
        if self.is_over:
            return ()
        return self.current.contracts_left if self.current else ALL_CONTRACTS

    def deal_options(self) -> list[tuple[Contract, ...]]:
        """Every contract, or set of contracts, the King may choose for the next deal."""
        return deal_options(self.contracts_left(), self.rules)

    def options_after(self) -> dict[frozenset[Contract], list[tuple[Contract, ...]]]:
        """What the King of the next deal may choose after each set of contracts that the
        deals of this kingdom could use up first (for a phone holding deals not yet sent):
        every set the King's choices can reach, the empty set included, mapped to the choices
        then open. A set that completes the kingdom is not there: the next King chooses then.
        """
        left = self.contracts_left()
        found: dict[frozenset[Contract], list[tuple[Contract, ...]]] = {}
        todo = [frozenset[Contract]()]
        while todo:
            used = todo.pop()
            if used in found or len(used) == len(left):
                continue
            found[used] = deal_options(tuple(c for c in left if c not in used), self.rules)
            todo.extend(used | set(option) for option in found[used])
        return found

    def possible_throw_in_reasons(self) -> tuple[str, ...]:
        """Why the next deal may be thrown in, in the order of ``THROW_IN_REASONS``.

        A K♥ redeal follows the announcement of King of Hearts, and a Trex throw-in that of
        Trex (RULES.md), so each is possible only while the King may still announce that
        contract, alone or in a combined deal; a misdeal or another reason always is. Under
        ``no_redeal_requests`` neither is ever possible. Empty once the game is over.
        """
        if self.is_over:
            return ()
        options = self.deal_options()
        return tuple(
            reason
            for reason in THROW_IN_REASONS
            if reason not in ANNOUNCED_FIRST
            or (
                not self.rules.no_redeal_requests
                and any(ANNOUNCED_FIRST[reason] in option for option in options)
            )
        )

    # -- checking and adding a deal
    def check(self, deal: DealRecord, number: int | None = None) -> list[Problem]:
        """What is wrong with *deal* as the next deal of this game (empty when nothing)."""
        number = number if number is not None else self.count + 1
        problems = self._check(deal, number)
        if not problems and number > DEAL_LIMIT:
            return [Problem("too_many_deals", {"limit": DEAL_LIMIT}, number)]
        return problems

    def _check(self, deal: DealRecord, number: int) -> list[Problem]:
        if self.is_over:
            return [Problem("game_over", {}, number)]
        kings = self.next_kings()
        if deal.king not in kings:
            return [self._wrong_king(deal.king, kings, number)]
        if deal.thrown_in is not None:
            return self._throw_in_problems(deal.thrown_in.reason, deal.king, number)
        # A sweep replayed uses up nothing, but its contracts were announced like any others.
        shape = self._shape_problem(deal.contracts, number)
        if shape:
            return [shape]
        left = self.contracts_left()
        for contract in deal.contracts:
            if contract not in left:
                return [
                    Problem(
                        "contract_used",
                        {"contract": contract.label},
                        number,
                        contract.value,
                        "contracts",
                    )
                ]
        if _sorted(deal.contracts) not in _option_keys(left, self.rules):
            expected = [c for c in (self.rules.fixed_order or ()) if c in left][:1]
            label = expected[0].label if expected else "?"
            return [Problem("not_fixed_order", {"expected": label}, number, None, "contracts")]
        return []

    def _throw_in_problems(self, reason: str, king: int, number: int) -> list[Problem]:
        if reason in self.possible_throw_in_reasons():
            return []
        if self.rules.no_redeal_requests and reason in ANNOUNCED_FIRST:
            return [Problem(_OFF_REASON_CODES[reason], {}, number, None, "thrown_in.reason")]
        return [
            Problem(
                _CLOSED_REASON_CODES[reason],
                {"king": self.names[king]},
                number,
                None,
                "thrown_in.reason",
            )
        ]

    def _wrong_king(self, found: int, kings: tuple[int, ...], number: int) -> Problem:
        params = {"found": self.names[found]}
        if self.current is not None:
            return Problem(
                "wrong_king", {**params, "expected": self.names[kings[0]]}, number, None, "king"
            )
        if not self.kingdoms:
            return Problem(
                "first_deal_king", {"expected": self.names[self.first_king]}, number, None, "king"
            )
        if self.rules.rotation == "table-picks":
            return Problem("king_again", {"player": self.names[found]}, number, None, "king")
        return Problem("not_next_king", {"expected": self.names[kings[0]]}, number, None, "king")

    def _shape_problem(self, contracts: tuple[Contract, ...], number: int) -> Problem | None:
        if len(contracts) == 1:
            if self.rules.combining == "complex" and contracts[0] is not Contract.TREX:
                return Problem("complex_needs_all_four", {}, number, None, "contracts")
            return None
        if Contract.TREX in contracts:
            return Problem("trex_not_alone", {}, number, None, "contracts")
        if self.rules.combining == "none":
            return Problem("combining_off", {}, number, None, "contracts")
        if self.rules.combining == "complex" and len(contracts) != len(NEGATIVE_CONTRACTS):
            return Problem("complex_needs_all_four", {}, number, None, "contracts")
        return None

    def add(self, deal: DealRecord) -> None:
        """Record *deal* as the next deal; call :meth:`check` first."""
        if self.current is None:
            self.kingdoms.append(Kingdom(deal.king))
        kingdom = self.kingdoms[-1]
        kingdom.deals.append(self.count)
        if uses_contracts(deal, self.rules):
            kingdom.played.extend(deal.contracts)
        self.count += 1


def _sorted(contracts: tuple[Contract, ...]) -> tuple[Contract, ...]:
    return tuple(sorted(contracts, key=ALL_CONTRACTS.index))


@lru_cache(maxsize=1024)
def _option_keys(left: tuple[Contract, ...], rules: HouseRules) -> frozenset[tuple[Contract, ...]]:
    return frozenset(_sorted(o) for o in _deal_options(left, rules))


def deal_options(left: Sequence[Contract], rules: HouseRules) -> list[tuple[Contract, ...]]:
    """What a King with the contracts *left* may choose: one contract, or under ``complex`` and
    ``combination`` a group of negative contracts (Trex always alone)."""
    return list(_deal_options(tuple(left), rules))


@lru_cache(maxsize=1024)
def _deal_options(
    left: tuple[Contract, ...], rules: HouseRules
) -> tuple[tuple[Contract, ...], ...]:
    negatives = [c for c in NEGATIVE_CONTRACTS if c in left]
    options: list[tuple[Contract, ...]]
    if rules.combining == "none":
        options = [(c,) for c in ALL_CONTRACTS if c in left]
    elif rules.combining == "complex":
        options = [tuple(negatives)] if negatives else []
    else:
        options = [
            group
            for size in range(1, len(negatives) + 1)
            for group in combinations(negatives, size)
        ]
    if rules.combining != "none" and Contract.TREX in left:
        options.append((Contract.TREX,))
    if rules.fixed_order is not None and options:
        # The next contract in the order is played next; a combined deal takes the place of
        # the first of its contracts in the order.
        following = next(c for c in rules.fixed_order if c in left)
        options = [shape for shape in options if following in shape]
    return tuple(options)
