"""Running many simulated games and summarising them, for ``scorekeeper simulate``.

A game the simulator plays is made by the engine itself: every card goes through the rules of
play, and each deal's points are counted from the cards as they fall (:func:`.simulate.play_game`).
So it is not read back through the validator and scored again on every run, which would cost
as much as playing it. In the checking mode (``check=True``: ``scorekeeper simulate --check``,
or the environment variable ``SCOREKEEPER_CHECK_SIMULATED=1``, which the command reads and the
test suite sets; the engine reads no environment) each game also goes through the same door as a file a person brings: it is read and validated by
:func:`.gamefile.read_game`, scored by the scorer, and the two counts must agree deal by deal
and contract by contract. A game that comes from outside (``scorekeeper score``, the importer,
an entry form) is always checked.

Games can be played in several processes (*jobs*); game *i* is always played from seed
``seed + i``, and the summary adds up whole numbers, so the result is the same whatever the
number of processes.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .contracts import ALL_CONTRACTS, Contract
from .rules import HouseRules
from .scoring import Scores, places, team_result, team_totals, winners

#: Games per piece of work handed to a process: small enough to share the work out evenly.
CHUNKS_PER_JOB = 4


class SimulationMismatch(RuntimeError):
    """A simulated game that the validator refuses, or that the scorer counts differently from
    the play: a defect of the engine, never of the player."""


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass
class Summary:
    games: int = 0
    seconds: float = 0.0
    seat_totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    king_points: dict[Contract, int] = field(default_factory=dict)
    other_points: dict[Contract, int] = field(default_factory=dict)
    contract_deals: dict[Contract, int] = field(default_factory=dict)
    jobs: int = 1

    @property
    def by_seat(self) -> list[float]:
        return [t / max(self.games, 1) for t in self.seat_totals]

    @property
    def by_contract(self) -> dict[Contract, tuple[float, float]]:
        """Average points per deal of each contract: for its King, and for each other player."""
        return {
            c: (
                self.king_points[c] / self.contract_deals[c],
                self.other_points[c] / (3 * self.contract_deals[c]),
            )
            for c in ALL_CONTRACTS
            if self.contract_deals.get(c)
        }

    def add(self, other: Summary) -> None:
        """Add the games of *other* (the whole numbers only: the seconds are the caller's)."""
        self.games += other.games
        for seat in range(4):
            self.seat_totals[seat] += other.seat_totals[seat]
        for mine, theirs in (
            (self.king_points, other.king_points),
            (self.other_points, other.other_points),
            (self.contract_deals, other.contract_deals),
        ):
            for contract, value in theirs.items():
                mine[contract] = mine.get(contract, 0) + value


def run_simulation(
    games: int,
    seed: int,
    rules: HouseRules,
    bot: str = "random",
    out: Path | None = None,
    *,
    jobs: int = 1,
    check: bool = False,
) -> Summary:
    """Play *games* games from *seed* in *jobs* processes and sum them up; optionally write
    the files (with their scores and totals, as export writes them) to the folder *out*.
    *check*: read every game back through the validator and score it again."""
    start = time.perf_counter()
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        summary = _play_range((seed, games, rules, bot, out, check))
    else:
        summary = Summary()
        size = -(-games // (jobs * CHUNKS_PER_JOB))
        chunks = [
            (seed + first, min(size, games - first), rules, bot, out, check)
            for first in range(0, games, size)
        ]
        with _context().Pool(jobs) as pool:
            for part in pool.imap_unordered(_play_range, chunks):
                summary.add(part)
        summary.jobs = jobs
    summary.seconds = time.perf_counter() - start
    return summary


def _context() -> Any:
    """Processes started by fork where that is safe (no other thread running: the command
    line), else by spawn."""
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _play_range(args: tuple[int, int, HouseRules, str, Path | None, bool]) -> Summary:
    """Play games *seed* to *seed* + *count* - 1 and sum them up."""
    from .simulate import play_game

    seed, count, rules, bot, out, check = args
    summary = Summary()
    seat_totals = summary.seat_totals
    king_points, other_points = summary.king_points, summary.other_points
    contract_deals = summary.contract_deals
    for game_seed in range(seed, seed + count):
        played = play_game(game_seed, rules, bot)
        if check:
            check_game(played, rules)
        a = b = c = d = 0
        for raw, parts in zip(played.doc["deals"], played.points):
            king = raw["king"]
            for contract, scores in parts.items():
                a, b, c, d = a + scores[0], b + scores[1], c + scores[2], d + scores[3]
                king_points[contract] = king_points.get(contract, 0) + scores[king]
                other_points[contract] = (
                    other_points.get(contract, 0)
                    + scores[0]
                    + scores[1]
                    + scores[2]
                    + scores[3]
                    - scores[king]
                )
                contract_deals[contract] = contract_deals.get(contract, 0) + 1
        if a + b + c + d:  # every complete kingdom sums to zero, so does the game
            raise SimulationMismatch(
                f"the simulated game of seed {game_seed} sums to {a + b + c + d}, not 0"
            )
        seat_totals[0] += a
        seat_totals[1] += b
        seat_totals[2] += c
        seat_totals[3] += d
        if out is not None:
            path = out / f"game-{game_seed:06d}.json"
            path.write_text(
                json.dumps(scored_document(played, rules), ensure_ascii=False, indent=1),
                encoding="utf-8",
            )
        summary.games += 1
    return summary


def scored_document(played: Any, rules: HouseRules) -> dict[str, Any]:
    """A simulated game's document with what export adds (each deal's scores, the totals, the
    team keys under partnership, places and winners), from the points the play counted: the
    same document as ``game_to_dict(read_game(doc), with_scores=True)``."""
    doc = dict(played.doc)
    scores = played.deal_scores
    doc["deals"] = [{**raw, "scores": list(s)} for raw, s in zip(played.doc["deals"], scores)]
    totals: Scores = played.totals
    doc["totals"] = list(totals)
    if rules.partnership:
        doc["team_totals"] = list(team_totals(totals))
        doc["team_result"] = team_result(totals, rules)
    doc["places"] = list(places(totals, rules))
    doc["winners"] = list(winners(totals, rules))
    return doc


def check_game(played: Any, rules: HouseRules) -> None:
    """Read a simulated game back as a file from outside would be (every deal, the
    cross-checks, the order of kingdoms), score it with the scorer, and hold the result to what
    the play counted; raise :class:`SimulationMismatch` on any difference."""
    from .errors import InvalidResult
    from .gamefile import game_to_dict, read_game
    from .scoring import contract_scores

    seed_title = played.doc.get("title", "a simulated game")
    try:
        game = read_game(played.doc)
    except InvalidResult as exc:
        raise SimulationMismatch(
            f"{seed_title}: the validator refuses it: " + "; ".join(str(p) for p in exc.problems)
        ) from exc
    scored = game.score()
    if not scored.is_over:
        raise SimulationMismatch(f"{seed_title}: the game is not over")
    if tuple(scored.deals) != played.deal_scores:
        raise SimulationMismatch(
            f"{seed_title}: the scorer counts {list(scored.deals)}, "
            f"the play {list(played.deal_scores)}"
        )
    for number, (deal, points) in enumerate(zip(game.deals, played.points), start=1):
        if contract_scores(deal, rules) != points:
            raise SimulationMismatch(
                f"{seed_title}, deal {number}: the scorer counts "
                f"{contract_scores(deal, rules)}, the play {points}"
            )
    if scored_document(played, rules) != game_to_dict(game, with_scores=True):
        raise SimulationMismatch(f"{seed_title}: its written file would differ from export's")
