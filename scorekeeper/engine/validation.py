"""Checking an entered deal against what real cards allow (RULES.md).

:func:`check_deal` returns every problem with one deal's results; :func:`validate_entry` reads a
file-format deal and checks it against the rules and the game so far, which is what an entry form
and the importer both call.
"""

from __future__ import annotations

from typing import Any, Sequence

from .contracts import QUEEN_SUITS, Contract
from .errors import Problem
from .progression import Progress
from .records import CARD_NAMES, SWEEP_KEPT, Capture, DealRecord, default_names, read_deal
from .rules import HouseRules
from .scoring import is_sweep

COUNT_TOTAL = 13


def check_deal(
    deal: DealRecord,
    rules: HouseRules,
    number: int | None = None,
    names: Sequence[str] | None = None,
) -> list[Problem]:
    """Every problem with one deal's results taken alone (sums, doubling, cross-checks)."""
    names = names or default_names()
    if deal.is_thrown_in:
        return []
    problems: list[Problem] = []

    def report(code: str, contract: Contract | None, field: str | None, **params: Any) -> None:
        problems.append(Problem(code, params, number, contract.value if contract else None, field))

    if deal.sweep_kept and rules.sweep_replay is None:
        report("sweep_kept_off", None, SWEEP_KEPT)

    for contract, counts, field in (
        (Contract.DIAMONDS, deal.diamonds, "diamonds"),
        (Contract.COLLECTIONS, deal.tricks, "tricks"),
    ):
        if counts is not None and sum(counts) != COUNT_TOTAL:
            report("counts_sum", contract, field, total=sum(counts), expected=COUNT_TOTAL)
    for contract, card, field, capture in captures(deal):
        _check_capture(
            capture, card, rules, lambda code, f, **p: report(code, contract, f, **p), field
        )
    if not problems:
        problems.extend(_cross_checks(deal, number, names))
    if not problems and deal.sweep_kept and not is_sweep(deal, rules):
        report("sweep_kept_not_swept", None, SWEEP_KEPT)
    return problems


def captures(deal: DealRecord) -> list[tuple[Contract, str, str, Capture]]:
    """The K♥ and the queens of the deal: (contract, card name, result field, capture)."""
    out: list[tuple[Contract, str, str, Capture]] = []
    if deal.king_of_hearts is not None:
        out.append(
            (Contract.KING_OF_HEARTS, "king_of_hearts", "king_of_hearts", deal.king_of_hearts)
        )
    if deal.queens is not None:
        out.extend((Contract.QUEENS, s, f"queens.{s}", q) for s, q in zip(QUEEN_SUITS, deal.queens))
    return out


def _check_capture(capture: Capture, card: str, rules: HouseRules, report: Any, field: str) -> None:
    name = CARD_NAMES[card]
    if capture.doubled_by is not None and not rules.doubling:
        report("doubling_off", f"{field}.doubled_by", card=name)
        return
    holder_took = capture.doubled_by is not None and capture.doubled_by == capture.taker
    needs_leader = rules.self_capture == "leader-credit" and holder_took
    if capture.led_by is not None and not needs_leader:
        report("led_by_unneeded", f"{field}.led_by")
    elif capture.led_by is None and needs_leader:
        report("led_by_missing", f"{field}.led_by", card=name)


def penalty_cards(deal: DealRecord) -> list[int]:
    """Distinct penalty cards of the deal each seat took: diamonds, queens and the K♥, the Q♦
    counted once where it is both a diamond and a queen of the deal."""
    cards = [0, 0, 0, 0]
    if deal.diamonds is not None:
        for seat, n in enumerate(deal.diamonds):
            cards[seat] += n
    if deal.queens is not None:
        for suit, queen in zip(QUEEN_SUITS, deal.queens):
            if not (suit == "diamonds" and deal.diamonds is not None):
                cards[queen.taker] += 1
    if deal.king_of_hearts is not None:
        cards[deal.king_of_hearts.taker] += 1
    return cards


def _cross_checks(deal: DealRecord, number: int | None, names: Sequence[str]) -> list[Problem]:
    """RULES.md "Combined deals": cross-checks that follow from the cards being the same."""
    problems: list[Problem] = []
    if deal.diamonds is not None and deal.queens is not None:
        qd_taker = deal.queens[QUEEN_SUITS.index("diamonds")].taker
        if deal.diamonds[qd_taker] == 0:
            problems.append(
                Problem(
                    "qd_taker_no_diamond",
                    {"player": names[qd_taker]},
                    number,
                    Contract.DIAMONDS.value,
                    "diamonds",
                )
            )
    if deal.tricks is None:
        return problems
    taken: list[tuple[int, str, str]] = []  # (seat, card words, field)
    if deal.diamonds is not None:
        taken += [(s, "a diamond", "diamonds") for s in range(4) if deal.diamonds[s]]
    if deal.queens is not None:
        taken += [(q.taker, CARD_NAMES[s], f"queens.{s}") for s, q in zip(QUEEN_SUITS, deal.queens)]
    if deal.king_of_hearts is not None:
        taken.append((deal.king_of_hearts.taker, CARD_NAMES["king_of_hearts"], "king_of_hearts"))
    for seat, card, field in taken:
        if deal.tricks[seat] == 0:
            problems.append(
                Problem(
                    "no_trick_but_cards",
                    {"player": names[seat], "card": card},
                    number,
                    Contract.COLLECTIONS.value,
                    field,
                )
            )
            return problems
    for seat, cards in enumerate(penalty_cards(deal)):
        if cards > 4 * deal.tricks[seat]:
            problems.append(
                Problem(
                    "too_many_cards_for_tricks",
                    {
                        "player": names[seat],
                        "cards": cards,
                        "tricks": deal.tricks[seat],
                        "needed": -(-cards // 4),
                    },
                    number,
                    Contract.COLLECTIONS.value,
                    "tricks",
                )
            )
    return problems + _leader_checks(deal, deal.tricks, number, names)


def _leader_checks(
    deal: DealRecord, tricks: Sequence[int], number: int | None, names: Sequence[str]
) -> list[Problem]:
    """With Collections under ``leader-credit``: who led a trick is the King, who leads the
    first, or a player who took a trick, since the winner of each trick leads the next."""
    problems = []
    for _contract, card, field, capture in captures(deal):
        leader = capture.led_by
        if leader is not None and leader != deal.king and tricks[leader] == 0:
            problems.append(
                Problem(
                    "leader_no_trick",
                    {"player": names[leader], "card": CARD_NAMES[card]},
                    number,
                    Contract.COLLECTIONS.value,
                    f"{field}.led_by",
                )
            )
    return problems


def validate_entry(
    raw: Any,
    progress: Progress,
    number: int | None = None,
) -> tuple[DealRecord | None, list[Problem]]:
    """Read a file-format deal and check it as the next deal of the game *progress* holds."""
    number = number if number is not None else progress.count + 1
    deal, problems = read_deal(raw, number, progress.names)
    if deal is None:
        return None, problems
    problems = progress.check(deal, number) + check_deal(
        deal, progress.rules, number, progress.names
    )
    return (deal if not problems else None), problems
