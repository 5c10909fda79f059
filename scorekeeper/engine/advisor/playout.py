"""One sampled deal played to its end for each choice: the work the advisor repeats thousands
of times, in this process or in the pool's.

Sample *i* of a run is fixed by the run's seed and *i* alone, so a sample gives the same cards
whichever process plays it and however the samples are split, and every choice is played with
the same cards (common random numbers). The King sits at seat 0 and deals; the heuristic bots
play all four seats, each seeing only what a player at the table sees.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import NamedTuple, Sequence

from ..bots import HeuristicBot
from ..cards import CARDS, DIAMONDS_MASK, FULL_MASK, KING_OF_HEARTS, QUEENS_MASK
from ..contracts import Contract
from ..play import doubling_queue, is_sweep, redeal_requests
from ..play.quick import play_trex, play_tricks
from ..play.tally import (
    final_points,
    queens_split,
    trex_card_points,
    trick_card_points,
    trick_result,
)
from ..records import read_deal
from ..rules import HouseRules
from ..scoring import score_deal, swept_seats
from ..seats import seats_from

KING = 0
_KH = KING_OF_HEARTS.bit
_BOTS = [HeuristicBot()] * 4
_INDICES = tuple(range(52))
_TREX_ONLY = (Contract.TREX,)

#: What became of a sample for one choice.
PLAYED, THROWN_IN, REPLAYED = 0, 1, 2

Choice = tuple[Contract, ...]


class Outcome(NamedTuple):
    """One choice played with one sample's cards, from the King's side.

    *points* are the King's (with the partner's added under partnership), as scored; *place* is
    the King's finishing place in Trex (0 is first out), -1 in a trick deal. A sample that
    another player would have thrown in (a K♥ redeal, a Trex throw-in), or a sweep someone
    would have asked to replay, is not played to a score: *status* says so and the rest is 0.
    """

    status: int
    points: int = 0
    king_of_hearts: int = 0  # 1 when the King took the K♥
    diamonds: int = 0
    queens: int = 0
    tricks: int = 0
    place: int = -1


def sample_rng(seed: int, index: int) -> random.Random:
    """The random source of sample *index* of the run with this seed."""
    return random.Random(f"trex-advisor:{seed}:{index}")


def sample_hands(hand: int | None, seed: int, index: int) -> list[int]:
    """The four hands of one sample: the King's *hand* (or a random one when None) at seat 0,
    the other cards dealt at random to seats 1, 2 and 3."""
    rng = sample_rng(seed, index)
    rest = [i for i in _INDICES if hand is None or not hand >> i & 1]
    rng.shuffle(rest)
    masks = []
    if hand is not None:
        masks.append(hand)
    for start in range(0, len(rest), 13):
        mask = 0
        for i in rest[start : start + 13]:
            mask |= 1 << i
        masks.append(mask)
    return masks


def play_choice(
    hands: Sequence[int], contracts: Choice, rules: HouseRules, king_may_redeal: bool
) -> Outcome:
    """Play *contracts* with these hands, the King at seat 0 dealing. *king_may_redeal*: the
    King's own hand may ask for a redeal too (the King who chose with this hand plays it)."""
    for seat, reason in redeal_requests(hands, KING, contracts, rules):
        if (seat != KING or king_may_redeal) and _BOTS[seat].wants_redeal(hands[seat], reason):
            return Outcome(THROWN_IN)
    # Played on plain ints by the same bots (engine/play/quick.py): the choices and the cards
    # taken are those of the deal objects, which the tests hold to the same games.
    if contracts == _TREX_ONLY:
        order = play_trex(hands, KING, rules, _BOTS)
        points = final_points(trex_card_points(order), False, rules)
        return Outcome(PLAYED, _side(points, rules), place=order.index(KING))
    doubled = {}
    for seat, index in doubling_queue(list(hands), KING, contracts, rules):
        if _BOTS[seat].choose_double(hands[seat], CARDS[index]):
            doubled[index] = seat
    taken, tricks, lead_of = play_tricks(hands, KING, contracts, rules, doubled, _BOTS)
    if queens_split(contracts, taken, rules):
        return Outcome(REPLAYED)
    if rules.sweep_replay is not None:
        result = trick_result(KING, contracts, rules, taken, tricks, doubled, lead_of)
        if is_sweep(result, rules) and not _keeps_sweep(result, rules):
            return Outcome(REPLAYED)
    points = final_points(
        trick_card_points(contracts, rules, taken, tricks, doubled, lead_of, KING), False, rules
    )
    mine = taken[KING]
    return Outcome(
        PLAYED,
        _side(points, rules),
        int(bool(mine & _KH)),
        (mine & DIAMONDS_MASK).bit_count(),
        (mine & QUEENS_MASK).bit_count(),
        tricks[KING],
    )


def _side(points: Sequence[int], rules: HouseRules) -> int:
    """The points of the King's side: the King's, and the partner's under partnership."""
    return points[KING] + points[KING + 2] if rules.partnership else points[KING]


def _keeps_sweep(result: dict, rules: HouseRules) -> bool:
    """Whether the bots who swept this deal keep it (RULES.md "Sweeps"): asked in turn from the
    King, any of them may ask for the replay."""
    record, _problems = read_deal(result)
    if record is None:
        return False
    sweepers = swept_seats(record, rules)
    points = score_deal(replace(record, sweep_kept=True), rules)
    return not any(
        _BOTS[s].wants_replay(points[s], rules) for s in seats_from(KING) if s in sweepers
    )


class Task(NamedTuple):
    """A slice of a run for one process: samples *start* to *stop* of every choice."""

    hand: int | None
    choices: tuple[Choice, ...]
    rules: HouseRules
    seed: int
    start: int
    stop: int


def run_task(task: Task) -> list[list[Outcome]]:
    """Play samples ``start..stop`` for every choice: one list of outcomes per choice."""
    out: list[list[Outcome]] = [[] for _ in task.choices]
    random_king = task.hand is None
    for index in range(task.start, task.stop):
        hands = sample_hands(task.hand, task.seed, index)
        for column, contracts in zip(out, task.choices):
            column.append(play_choice(hands, contracts, task.rules, random_king))
    return out


def warm() -> int:
    """Nothing: a task that makes a fresh worker import this module before real work."""
    return FULL_MASK.bit_count()
