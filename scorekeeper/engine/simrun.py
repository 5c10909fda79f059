"""Running many simulated games and summarising them, for ``scorekeeper simulate``.

Every simulated game goes through the same door as a file a person brings: it is read and
validated by :func:`gamefile.read_game` and scored by the scorer.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from .contracts import ALL_CONTRACTS, Contract
from .gamefile import game_to_dict, read_game
from .rules import HouseRules
from .scoring import contract_scores


@dataclass
class Summary:
    games: int = 0
    seconds: float = 0.0
    seat_totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    king_points: dict[Contract, int] = field(default_factory=dict)
    other_points: dict[Contract, int] = field(default_factory=dict)
    contract_deals: dict[Contract, int] = field(default_factory=dict)

    @property
    def by_seat(self) -> list[float]:
        return [t / max(self.games, 1) for t in self.seat_totals]

    @property
    def by_contract(self) -> dict[Contract, tuple[float, float]]:
        """Average points per deal of each contract: for its King, and for each other player."""
        return {c: (self.king_points[c] / self.contract_deals[c],
                    self.other_points[c] / (3 * self.contract_deals[c]))
                for c in ALL_CONTRACTS if self.contract_deals.get(c)}


def run_simulation(games: int, seed: int, rules: HouseRules, bot: str = "random",
                   out: Path | None = None) -> Summary:
    """Play *games* games from *seed*; validate and score each; optionally write the files."""
    from .simulate import simulate_game

    summary = Summary()
    start = time.perf_counter()
    for index in range(games):
        doc = simulate_game(seed + index, rules, bot)
        game = read_game(doc)
        scored = game.score()
        for seat in range(4):
            summary.seat_totals[seat] += scored.totals[seat]
        for deal in game.deals:
            for contract, scores in contract_scores(deal, rules).items():
                king = scores[deal.king]
                summary.king_points[contract] = summary.king_points.get(contract, 0) + king
                summary.other_points[contract] = (summary.other_points.get(contract, 0)
                                                  + sum(scores) - king)
                summary.contract_deals[contract] = summary.contract_deals.get(contract, 0) + 1
        if out is not None:
            path = out / f"game-{seed + index:06d}.json"
            path.write_text(json.dumps(game_to_dict(game, with_scores=True), ensure_ascii=False,
                                       indent=1), encoding="utf-8")
        summary.games += 1
    summary.seconds = time.perf_counter() - start
    return summary
