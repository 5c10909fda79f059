"""The advice: every open choice played forward from the King's hand, ranked by its gain.

Every open contract will be played in this kingdom anyway, each with some hand, so the question
is not which choice scores most with this hand (Trex always scores more than any negative
contract) but which choice this hand is best *for*. A choice's **gain** is the hand's expected
points in it minus what it is worth to a King on an average hand (:mod:`.baseline`), turned so
that more is better under ``reverse_scores`` too. Choices are ranked by gain; those whose gain
is not clearly below the best one's, by a paired comparison over the same deals, are within the
noise of it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Sequence

from ..contracts import Contract
from ..play import kh_redeal_allowed, trex_throw_in_allowed
from ..play.redeal import KH_REDEAL, TREX_TWOS
from ..rules import HouseRules
from . import baseline, pool
from .hand import HAND_SIZE, AdviceError
from .playout import PLAYED, THROWN_IN, Choice, Outcome

#: The 90% two-sided quantile of the normal distribution.
Z90 = 1.6449
DEFAULT_SEED = 1
#: The interval each choice's expected points should reach: ± this many points.
TARGET = 10.0
#: Samples dealt to every choice first; more follow for the choices whose interval is wider
#: than the target, up to the most a choice is ever given.
FIRST_ROUND = 200
MOST = 1_600
ROUNDS = 3


@dataclass(frozen=True)
class ChoiceAdvice:
    """One open choice: the King's expected points with this hand and their 90% interval, the
    same for a King on an average hand, the gain, and what the simulations saw.

    Points are the King's as scored, with the partner's added under partnership. *gain* is
    better when higher under every rule set. The figures of what was seen are the King's own,
    per deal played: the share of deals in which they took the K♥, the diamonds, queens and
    tricks they took on average, and in Trex the share of deals they went out first and their
    average place (1 to 4); None where the choice does not play that contract.
    """

    contracts: tuple[Contract, ...]
    samples: int
    deals: int
    expected: float
    low: float
    high: float
    average_hand: float
    gain: float
    gain_low: float
    gain_high: float
    best: bool = False
    within_noise: bool = False
    thrown_in: float = 0.0
    king_of_hearts: float | None = None
    diamonds: float | None = None
    queens: float | None = None
    tricks: float | None = None
    first_out: float | None = None
    place: float | None = None

    @property
    def margin(self) -> float:
        """Half the width of the 90% interval of *expected*."""
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["contracts"] = [c.value for c in self.contracts]
        return {k: round(v, 2) if isinstance(v, float) else v for k, v in out.items()}


@dataclass(frozen=True)
class Advice:
    """The open choices, best first."""

    choices: tuple[ChoiceAdvice, ...]
    seed: int
    #: Redeals the King's own hand may ask for after announcing the contract
    #: (``"kh-redeal"``, ``"trex-twos"``); the advice is for playing the hand.
    own_redeals: tuple[str, ...] = field(default=())

    @property
    def best(self) -> ChoiceAdvice:
        return self.choices[0]

    @property
    def close(self) -> tuple[ChoiceAdvice, ...]:
        """The other choices within the noise of the best."""
        return tuple(c for c in self.choices[1:] if c.within_noise)

    def to_dict(self) -> dict[str, Any]:
        return {
            "choices": [c.to_dict() for c in self.choices],
            "best": [c.value for c in self.best.contracts],
            "within_noise": [[c.value for c in choice.contracts] for choice in self.close],
            "own_redeals": list(self.own_redeals),
            "seed": self.seed,
        }


def advise(
    hand: int,
    choices: Sequence[Choice],
    rules: HouseRules,
    *,
    deals: int | None = None,
    seed: int = DEFAULT_SEED,
    parallel: bool | None = None,
    target: float = TARGET,
) -> Advice:
    """Advise the King holding *hand* (a mask of 13 cards) among *choices* (each a tuple of
    contracts, as :func:`~scorekeeper.engine.progression.deal_options` gives them).

    *deals*: the samples dealt to every choice; by default as many as bring each choice's 90%
    interval to ± *target* points (at least ``FIRST_ROUND``, at most ``MOST``). The same seed
    gives the same advice, in one process or many (*parallel*; None: when it helps).
    """
    if hand < 0 or hand >> 52:
        raise ValueError(f"{hand!r} is not a set of cards.")
    if hand.bit_count() != HAND_SIZE:
        raise AdviceError("hand_size", {"count": hand.bit_count()})
    choices = list(dict.fromkeys(tuple(c) for c in choices))
    if not choices:
        raise AdviceError("advice_nothing_open", {})
    averages = baseline.averages(rules, choices, parallel=parallel)
    first = deals if deals is not None else FIRST_ROUND
    if first < 1:
        raise ValueError("The advisor needs at least one deal per choice.")
    seen: dict[Choice, list[Outcome]] = {c: [] for c in choices}
    _extend(seen, hand, [(tuple(choices), 0, first)], rules, seed, parallel)
    for _ in range(ROUNDS - 1 if deals is None else 0):
        wanted = {c: _needed(seen[c], target) for c in choices}
        groups: dict[int, list[Choice]] = {}
        for choice in choices:
            if wanted[choice] > len(seen[choice]):
                groups.setdefault(len(seen[choice]), []).append(choice)
        if not groups:
            break
        _extend(
            seen,
            hand,
            [
                (tuple(group), start, max(wanted[c] for c in group))
                for start, group in groups.items()
            ],
            rules,
            seed,
            parallel,
        )
    sign = -1 if rules.reverse_scores else 1
    found = [_summary(c, seen[c], averages[c], sign) for c in choices]
    order = sorted(range(len(found)), key=lambda i: (-found[i].gain, i))
    best = choices[order[0]]
    ranked = []
    for rank, i in enumerate(order):
        close = rank > 0 and _within_noise(
            seen[best], seen[choices[i]], averages[best], averages[choices[i]], sign
        )
        ranked.append(replace(found[i], best=rank == 0, within_noise=close))
    return Advice(tuple(ranked), seed, _own_redeals(hand, choices, rules))


def _extend(
    seen: dict[Choice, list[Outcome]],
    hand: int,
    groups: list[pool.Group],
    rules: HouseRules,
    seed: int,
    parallel: bool | None,
) -> None:
    for choice, outcomes in pool.play(hand, groups, rules, seed, parallel).items():
        seen[choice].extend(outcomes)


def _points(outcomes: Sequence[Outcome]) -> list[int]:
    return [o.points for o in outcomes if o.status == PLAYED]


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if not n:
        return 0.0, 0.0
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0


def _needed(outcomes: Sequence[Outcome], target: float) -> int:
    """Samples that would bring this choice's interval to ± *target* (10% to spare), at most
    ``MOST``."""
    points = _points(outcomes)
    _mean, sd = _mean_sd(points)
    if len(points) < 2:
        return len(outcomes)
    played = len(points) / len(outcomes)
    wanted = (Z90 * sd / target) ** 2 * 1.1 / played
    return min(MOST, math.ceil(wanted))


def _summary(
    choice: Choice, outcomes: Sequence[Outcome], average: baseline.Average, sign: int
) -> ChoiceAdvice:
    played = [o for o in outcomes if o.status == PLAYED]
    points = [o.points for o in played]
    mean, sd = _mean_sd(points)
    margin = Z90 * sd / math.sqrt(len(points)) if points else 0.0
    gain = sign * (mean - average.mean)
    gain_margin = Z90 * math.hypot(sd / math.sqrt(len(points)) if points else 0.0, average.error)
    n = len(played) or 1

    def share(values: Sequence[int]) -> float:
        return sum(values) / n

    seen: dict[str, float | None] = {}
    if Contract.KING_OF_HEARTS in choice:
        seen["king_of_hearts"] = share([o.king_of_hearts for o in played])
    if Contract.DIAMONDS in choice:
        seen["diamonds"] = share([o.diamonds for o in played])
    if Contract.QUEENS in choice:
        seen["queens"] = share([o.queens for o in played])
    if Contract.COLLECTIONS in choice:
        seen["tricks"] = share([o.tricks for o in played])
    if Contract.TREX in choice:
        seen["first_out"] = share([o.place == 0 for o in played])
        seen["place"] = share([o.place for o in played]) + 1
    thrown = sum(o.status == THROWN_IN for o in outcomes) / max(len(outcomes), 1)
    return ChoiceAdvice(
        choice,
        len(outcomes),
        len(played),
        mean,
        mean - margin,
        mean + margin,
        average.mean,
        gain,
        gain - gain_margin,
        gain + gain_margin,
        thrown_in=thrown,
        **seen,  # type: ignore[arg-type]
    )


def _within_noise(
    best: Sequence[Outcome],
    other: Sequence[Outcome],
    best_average: baseline.Average,
    other_average: baseline.Average,
    sign: int,
) -> bool:
    """Is *other*'s gain not clearly (at 90%, one-sided 95%) below the best's? Compared deal
    by deal over the samples both played (common random numbers)."""
    pairs = [
        sign * (a.points - b.points)
        for a, b in zip(best, other)
        if a.status == PLAYED and b.status == PLAYED
    ]
    if len(pairs) < 2:
        return True
    mean, sd = _mean_sd(pairs)
    difference = mean - sign * (best_average.mean - other_average.mean)
    error = math.sqrt(sd**2 / len(pairs) + best_average.error**2 + other_average.error**2)
    return difference - Z90 * error <= 0


def _own_redeals(hand: int, choices: Sequence[Choice], rules: HouseRules) -> tuple[str, ...]:
    announced = {c for choice in choices for c in choice}
    found: list[str] = []
    if rules.no_redeal_requests:
        return ()
    if Contract.KING_OF_HEARTS in announced and kh_redeal_allowed(hand, rules):
        found.append(KH_REDEAL)
    if Contract.TREX in announced and trex_throw_in_allowed(hand):
        found.append(TREX_TWOS)
    return tuple(found)
