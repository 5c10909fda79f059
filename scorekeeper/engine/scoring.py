"""Scoring: the one place in the project where a result becomes points.

Each contract's scorer reads the value table in :mod:`contracts` and applies the house rules; a
combined deal is the sum of its contracts scored alone (RULES.md "Combined deals").
"""

from __future__ import annotations

from typing import Callable, Sequence

from .contracts import (
    DIAMOND_VALUE,
    KING_OF_HEARTS_VALUE,
    QUEEN_SUITS,
    QUEEN_VALUE,
    TREX_PLACES,
    TRICK_VALUE,
    Contract,
)
from .records import Capture, DealRecord
from .rules import HouseRules

Scores = tuple[int, int, int, int]
ZERO: Scores = (0, 0, 0, 0)


def credited_seat(rules: HouseRules, holder: int, leader: int | None, king: int) -> int | None:
    """Who gains the value of a doubled card that its own holder took (RULES.md "Doubling"):
    the player who led to that trick under ``leader-credit``, the King of the deal under
    ``king-credit``; None (the holder scores the card once) under ``single``, or when that
    player is the holder."""
    credited = {"leader-credit": leader, "king-credit": king}.get(rules.self_capture)
    return None if credited == holder else credited


def capture_points(capture: Capture, value: int, rules: HouseRules, king: int) -> list[int]:
    """Points for one card that can be doubled (the K♥ or a queen), *value* being its base;
    *king* is the King of the deal."""
    points = [0, 0, 0, 0]
    holder = capture.doubled_by if rules.doubling else None
    if holder is None:
        points[capture.taker] += value
    elif capture.taker != holder:
        points[capture.taker] += 2 * value
        points[holder] -= value
    elif (credited := credited_seat(rules, holder, capture.led_by, king)) is not None:
        points[holder] += 2 * value
        points[credited] -= value
    else:
        points[holder] += value
    return points


def _king_of_hearts(deal: DealRecord, rules: HouseRules) -> list[int]:
    assert deal.king_of_hearts is not None
    return capture_points(deal.king_of_hearts, KING_OF_HEARTS_VALUE, rules, deal.king)


def _queens(deal: DealRecord, rules: HouseRules) -> list[int]:
    assert deal.queens is not None
    totals = [0, 0, 0, 0]
    for queen in deal.queens:
        for seat, p in enumerate(capture_points(queen, QUEEN_VALUE, rules, deal.king)):
            totals[seat] += p
    return totals


def _diamonds(deal: DealRecord, rules: HouseRules) -> list[int]:
    assert deal.diamonds is not None
    value = DIAMOND_VALUE[rules.swap_diamonds_collections]
    return [n * value for n in deal.diamonds]


def _collections(deal: DealRecord, rules: HouseRules) -> list[int]:
    assert deal.tricks is not None
    value = TRICK_VALUE[rules.swap_diamonds_collections]
    return [n * value for n in deal.tricks]


def _trex(deal: DealRecord, rules: HouseRules) -> list[int]:
    assert deal.trex_order is not None
    points = [0, 0, 0, 0]
    for place, seat in enumerate(deal.trex_order):
        points[seat] = TREX_PLACES[place]
    return points


SCORERS: dict[Contract, Callable[[DealRecord, HouseRules], list[int]]] = {
    Contract.KING_OF_HEARTS: _king_of_hearts,
    Contract.DIAMONDS: _diamonds,
    Contract.QUEENS: _queens,
    Contract.COLLECTIONS: _collections,
    Contract.TREX: _trex,
}


def contract_total(contract: Contract, rules: HouseRules) -> int:
    """What one contract's deal sums to (RULES.md table): −75, −130, −100, −195, +500."""
    totals = {
        Contract.KING_OF_HEARTS: KING_OF_HEARTS_VALUE,
        Contract.DIAMONDS: 13 * DIAMOND_VALUE[rules.swap_diamonds_collections],
        Contract.QUEENS: 4 * QUEEN_VALUE,
        Contract.COLLECTIONS: 13 * TRICK_VALUE[rules.swap_diamonds_collections],
        Contract.TREX: sum(TREX_PLACES),
    }
    value = totals[contract]
    return -value if rules.reverse_scores else value


def swept_seats(deal: DealRecord, rules: HouseRules) -> tuple[int, ...]:
    """Under ``sweep_replay``, the seats that swept a contract of the deal (RULES.md "Sweeps"):
    took all 13 diamonds, all 4 queens, or N tricks or more in Collections. Usually none."""
    if rules.sweep_replay is None or deal.is_thrown_in:
        return ()
    seats: set[int] = set()
    if deal.diamonds is not None:
        seats.update(s for s in range(4) if deal.diamonds[s] == 13)
    if deal.queens is not None and len({q.taker for q in deal.queens}) == 1:
        seats.add(deal.queens[0].taker)
    if deal.tricks is not None:
        seats.update(s for s in range(4) if deal.tricks[s] >= rules.sweep_replay)
    return tuple(sorted(seats))


def is_sweep(deal: DealRecord, rules: HouseRules) -> bool:
    """Under ``sweep_replay``: one player took all 13 diamonds, all 4 queens, or N+ tricks, in
    a contract of the deal. The sweep is replayed unless the table kept it (:func:`is_replayed`)."""
    return bool(swept_seats(deal, rules))


def is_split_queens(deal: DealRecord, rules: HouseRules) -> bool:
    """Under ``split_queens_replay`` (partnership only): a deal of Queens played alone in which
    each team took exactly two queens (RULES.md "Partnership"). Doubling changes nothing to
    it, and a combined deal is never one."""
    if not (rules.split_queens_replay and rules.partnership) or deal.queens is None:
        return False
    return (
        deal.contracts == (Contract.QUEENS,)
        and sum(1 for queen in deal.queens if queen.taker % 2 == 0) == 2
    )


def replay_reason(deal: DealRecord, rules: HouseRules) -> str | None:
    """Why a played deal is replayed: ``"sweep"`` (a sweep the table did not keep, RULES.md
    "Sweeps") or ``"split-queens"`` (``split_queens_replay``); None when it scores."""
    if is_split_queens(deal, rules):
        return "split-queens"
    if not deal.sweep_kept and is_sweep(deal, rules):
        return "sweep"
    return None


def is_replayed(deal: DealRecord, rules: HouseRules) -> bool:
    """A deal replayed: a sweep (the swept player may ask for the replay, so the table can
    also keep the result as played, ``deal.sweep_kept``), or Queens split two and two under
    ``split_queens_replay``. It scores nothing and uses up no contract."""
    return replay_reason(deal, rules) is not None


def uses_contracts(deal: DealRecord, rules: HouseRules) -> bool:
    """Whether the deal uses up its contracts: not thrown in, not a replayed sweep."""
    return not deal.is_thrown_in and not is_replayed(deal, rules)


def contract_scores(deal: DealRecord, rules: HouseRules) -> dict[Contract, Scores]:
    """Each contract of the deal scored alone; empty for thrown-in deals and replayed sweeps."""
    if not uses_contracts(deal, rules):
        return {}
    sign = -1 if rules.reverse_scores else 1
    out: dict[Contract, Scores] = {}
    for contract in deal.contracts:
        p = SCORERS[contract](deal, rules)
        out[contract] = (sign * p[0], sign * p[1], sign * p[2], sign * p[3])
    return out


def score_deal(deal: DealRecord, rules: HouseRules) -> Scores:
    """The four seats' points for one deal. Thrown-in deals and replayed sweeps score nothing."""
    total = ZERO
    for scores in contract_scores(deal, rules).values():
        total = add(total, scores)
    return total


def add(a: Sequence[int], b: Sequence[int]) -> Scores:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def team_totals(totals: Sequence[int]) -> tuple[int, int]:
    """Partnership: seats 0+2 against seats 1+3."""
    return (totals[0] + totals[2], totals[1] + totals[3])


def better(a: int, b: int, rules: HouseRules) -> bool:
    """Is total *a* better than total *b*? Higher wins; lower under ``reverse_scores``
    (RULES.md "Who wins")."""
    return a < b if rules.reverse_scores else a > b


def team_result(totals: Sequence[int], rules: HouseRules) -> str:
    """Which team won: ``"0+2"``, ``"1+3"`` or ``"tie"`` (RULES.md "Partnership", "Who wins").

    By default the team with the better sum wins (the higher, or the lower under
    ``reverse_scores``); under ``worst-loses`` the team of the player with the worst individual
    score (the lowest, or the highest under ``reverse_scores``) loses."""
    if rules.team_result == "worst-loses":
        worst = max(totals) if rules.reverse_scores else min(totals)
        losers = {s % 2 for s in range(4) if totals[s] == worst}
        if len(losers) == 2:
            return "tie"
        return "1+3" if losers == {0} else "0+2"
    a, b = team_totals(totals)
    if a == b:
        return "tie"
    return "0+2" if better(a, b, rules) else "1+3"


def places(totals: Sequence[int], rules: HouseRules) -> Scores:
    """Each seat's place, 1 being first (RULES.md "Who wins"): one more than the number of sides
    that did better, so that tied sides share a place.

    A side is a player, or under ``partnership`` a team: both partners then have their team's
    place (1 for the winners, 2 for the others, 1 for all four on a tie)."""
    if rules.partnership:
        result = team_result(totals, rules)
        won = {"0+2": (0,), "1+3": (1,), "tie": (0, 1)}[result]
        p0, p1 = (1 if 0 in won else 2), (1 if 1 in won else 2)
        return (p0, p1, p0, p1)
    p = [1 + sum(1 for other in totals if better(other, mine, rules)) for mine in totals]
    return (p[0], p[1], p[2], p[3])


def winners(totals: Sequence[int], rules: HouseRules) -> tuple[int, ...]:
    """The seats in first place: the best total, or the winning team (more than one on a tie)."""
    return tuple(s for s, place in enumerate(places(totals, rules)) if place == 1)


def comeback(deal_scores: Sequence[Scores], rules: HouseRules) -> tuple[int, int]:
    """The biggest comeback of a game (RULES.md "Who wins"): the most points a side that won
    it trailed the leading side by after one of its deals, and that deal's number (1 for the
    first); ``(0, 0)`` when the winners never trailed. A side is a player, or under
    ``partnership`` a team; trailing follows the winning direction (under ``reverse_scores``
    the higher total trails). Only a finished game's deals make a comeback that counts."""
    running: list[Scores] = []
    total: Scores = ZERO
    for scores in deal_scores:
        total = add(total, scores)
        running.append(total)
    if not running:
        return (0, 0)
    final = places(running[-1], rules)
    sides = (0, 1) if rules.partnership else (0, 1, 2, 3)
    won = [s for s in sides if final[s] == 1]
    sign = -1 if rules.reverse_scores else 1
    best = (0, 0)
    for number, totals in enumerate(running, start=1):
        values = team_totals(totals) if rules.partnership else totals
        leader = max(sign * values[s] for s in sides)
        behind = max(leader - sign * values[s] for s in won)
        if behind > best[0]:
            best = (behind, number)
    return best


__all__ = [
    "Scores",
    "score_deal",
    "contract_scores",
    "is_sweep",
    "is_replayed",
    "swept_seats",
    "is_split_queens",
    "replay_reason",
    "credited_seat",
    "uses_contracts",
    "contract_total",
    "capture_points",
    "team_totals",
    "team_result",
    "better",
    "places",
    "winners",
    "comeback",
    "QUEEN_SUITS",
]
