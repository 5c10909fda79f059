"""From the cards each seat took to the file-format result and to points counted card by card.

The points here are counted independently of :mod:`scorekeeper.engine.scoring` (which works from
the entered result); tests check that both agree.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..cards import CARDS, DIAMONDS_MASK, KING_OF_HEARTS, QUEENS
from ..contracts import (
    DIAMOND_VALUE,
    KING_OF_HEARTS_VALUE,
    QUEEN_SUITS,
    QUEEN_VALUE,
    TREX_PLACES,
    TRICK_VALUE,
    Contract,
)
from ..errors import RuleError
from ..rules import HouseRules

KH_INDEX = KING_OF_HEARTS.index
QUEEN_INDICES = tuple(q.index for q in QUEENS)
_QUEENS_MASK = sum(1 << index for index in QUEEN_INDICES)
KH, DI, QU, CO, TX = (
    Contract.KING_OF_HEARTS,
    Contract.DIAMONDS,
    Contract.QUEENS,
    Contract.COLLECTIONS,
    Contract.TREX,
)
#: The four seats' points.
Points = tuple[int, int, int, int]


def _taker_of(index: int, taken: Sequence[int]) -> int:
    bit = 1 << index
    for seat in range(4):
        if taken[seat] & bit:
            return seat
    raise RuleError(f"Nobody took the {CARDS[index].pretty}, so the deal has no complete result.")


def capture_result(
    index: int,
    taken: Sequence[int],
    doubled: Mapping[int, int],
    lead_of: Mapping[int, int],
    rules: HouseRules,
) -> dict[str, int]:
    """The file-format capture of the K♥ or a queen: taker, doubled_by, led_by."""
    taker = _taker_of(index, taken)
    out = {"taker": taker}
    holder = doubled.get(index)
    if holder is not None:
        out["doubled_by"] = holder
        if holder == taker and rules.self_capture == "leader-credit":
            out["led_by"] = lead_of[index]
    return out


def trick_result(
    dealer: int,
    contracts: Sequence[Contract],
    rules: HouseRules,
    taken: Sequence[int],
    tricks: Sequence[int],
    doubled: Mapping[int, int],
    lead_of: Mapping[int, int],
) -> dict[str, Any]:
    """A finished trick deal as a file-format deal dict."""
    out: dict[str, Any] = {"king": dealer, "contracts": [c.value for c in contracts]}
    if KH in contracts:
        out["king_of_hearts"] = capture_result(KH_INDEX, taken, doubled, lead_of, rules)
    if DI in contracts:
        out["diamonds"] = [(t & DIAMONDS_MASK).bit_count() for t in taken]
    if QU in contracts:
        out["queens"] = {
            suit: capture_result(index, taken, doubled, lead_of, rules)
            for suit, index in zip(QUEEN_SUITS, QUEEN_INDICES)
        }
    if CO in contracts:
        out["tricks"] = list(tricks)
    return out


def queens_split(contracts: Sequence[Contract], taken: Sequence[int], rules: HouseRules) -> bool:
    """Under ``split_queens_replay`` (partnership only): Queens played alone, and each team
    took two queens, so the deal is replayed (RULES.md "Partnership")."""
    return (
        rules.split_queens_replay
        and rules.partnership
        and len(contracts) == 1
        and contracts[0] is QU
        and ((taken[0] | taken[2]) & _QUEENS_MASK).bit_count() == 2
    )


def trex_result(dealer: int, order: Sequence[int]) -> dict[str, Any]:
    return {"king": dealer, "contracts": [TX.value], "trex_order": list(order)}


def _capture_points(
    points: list[int],
    taker: int,
    value: int,
    holder: int | None,
    leader: int,
    dealer: int,
    rules: HouseRules,
) -> None:
    """Add the points of one taken K♥ or queen (RULES.md doubling and self-capture): a holder
    who takes their own doubled card pays double and credits the leader of that trick
    (``leader-credit``) or the King, who dealt (``king-credit``), unless that is the holder."""
    if holder is None:
        points[taker] += value
    elif holder != taker:
        points[taker] += 2 * value
        points[holder] -= value
    else:
        credited = {"leader-credit": leader, "king-credit": dealer}.get(rules.self_capture, holder)
        points[holder] += value if credited == holder else 2 * value
        if credited != holder:
            points[credited] -= value


def contract_card_points(
    contracts: Sequence[Contract],
    rules: HouseRules,
    taken: Sequence[int],
    tricks: Sequence[int],
    doubled: Mapping[int, int],
    lead_of: Mapping[int, int],
    dealer: int,
) -> dict[Contract, Points]:
    """Each contract's points for the four seats, counted card by card from the cards taken,
    before sweeps and reversal (in the order of *contracts*); *dealer* is the King."""
    out: dict[Contract, Points] = {}
    for contract in contracts:
        if contract is DI:
            value = DIAMOND_VALUE[rules.swap_diamonds_collections]
            out[contract] = (
                (taken[0] & DIAMONDS_MASK).bit_count() * value,
                (taken[1] & DIAMONDS_MASK).bit_count() * value,
                (taken[2] & DIAMONDS_MASK).bit_count() * value,
                (taken[3] & DIAMONDS_MASK).bit_count() * value,
            )
            continue
        if contract is CO:
            value = TRICK_VALUE[rules.swap_diamonds_collections]
            out[contract] = (
                tricks[0] * value,
                tricks[1] * value,
                tricks[2] * value,
                tricks[3] * value,
            )
            continue
        points = [0, 0, 0, 0]
        cards = (KH_INDEX,) if contract is KH else QUEEN_INDICES
        value = KING_OF_HEARTS_VALUE if contract is KH else QUEEN_VALUE
        for index in cards:
            bit = 1 << index
            for seat in range(4):
                if taken[seat] & bit:
                    holder = doubled.get(index) if rules.doubling else None
                    _capture_points(
                        points, seat, value, holder, lead_of.get(index, seat), dealer, rules
                    )
                    break
        out[contract] = (points[0], points[1], points[2], points[3])
    return out


def trick_card_points(
    contracts: Sequence[Contract],
    rules: HouseRules,
    taken: Sequence[int],
    tricks: Sequence[int],
    doubled: Mapping[int, int],
    lead_of: Mapping[int, int],
    dealer: int,
) -> list[int]:
    """Each seat's points, card by card from the cards taken, before sweeps and reversal."""
    points = [0, 0, 0, 0]
    for part in contract_card_points(
        contracts, rules, taken, tricks, doubled, lead_of, dealer
    ).values():
        for seat in range(4):
            points[seat] += part[seat]
    return points


def trex_contract_points(order: Sequence[int]) -> dict[Contract, Points]:
    """A Trex deal's points from the finishing order, before reversal."""
    points = [0, 0, 0, 0]
    for place, seat in enumerate(order):
        points[seat] += TREX_PLACES[place]
    return {TX: (points[0], points[1], points[2], points[3])}


def trex_card_points(order: Sequence[int]) -> list[int]:
    points = [0, 0, 0, 0]
    for place, seat in enumerate(order):
        points[seat] += TREX_PLACES[place]
    return points


def contract_final_points(
    points: dict[Contract, Points],
    swept: bool,
    rules: HouseRules,
) -> dict[Contract, Points]:
    """:func:`final_points` contract by contract: a replayed sweep scores nothing and uses up
    no contract (empty), ``reverse_scores`` negates; as the scorer's ``contract_scores``."""
    if swept:
        return {}
    if rules.reverse_scores:
        return {c: (-p[0], -p[1], -p[2], -p[3]) for c, p in points.items()}
    return points


def final_points(points: list[int], swept: bool, rules: HouseRules) -> list[int]:
    """Apply the deal-level rules: a replayed sweep scores nothing; ``reverse_scores`` negates."""
    if swept:
        return [0, 0, 0, 0]
    if rules.reverse_scores:
        return [-p for p in points]
    return points
