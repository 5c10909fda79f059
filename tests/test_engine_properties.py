"""Properties over many seeded simulated games (RULES.md as a whole, checked both ways).

Every simulated deal's result must pass validation, and its score through the table-driven
scorer must equal the points counted card by card as the deal was played.
"""
from __future__ import annotations

import pytest

from scorekeeper.engine import HouseRules, read_deal, read_game, score_deal
from scorekeeper.engine.simulate import simulate_game

VARIANTS = [
    {},
    {"self_capture": "leader-credit"},
    {"combining": "complex", "partnership": True},
    {"combining": "combination", "must_discard_penalty": True},
    {"swap_diamonds_collections": True, "no_heart_lead": True, "reverse_scores": True},
    {"sweep_replay": {"collections_tricks": 10}, "rotation": "table-picks",
     "kh_redeal_any_doubleton": True},
    {"doubling": False, "fixed_order": ["trex", "queens", "king_of_hearts", "diamonds",
                                        "collections"]},
    {"combining": "combination", "self_capture": "leader-credit", "team_result": "worst-loses",
     "partnership": True},
]
GAMES_PER_VARIANT = 125  # 8 variants: 1,000 games


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(r) or "standard")
def test_simulated_games__scorer_agrees_with_the_cards_and_validation_accepts(rules):
    house = HouseRules.from_dict(rules)
    for seed in range(GAMES_PER_VARIANT):
        counted: list[tuple[dict, list[int]]] = []
        doc = simulate_game(seed, house, "random",
                            observe=lambda result, points: counted.append((result, points)))
        game = read_game(doc)  # every deal and the game's order validate
        scored = game.score()  # raises if a complete kingdom does not sum to zero
        assert scored.is_over and sum(scored.totals) == 0
        for result, points in counted:
            record, problems = read_deal(result)
            assert not problems
            assert list(score_deal(record, house)) == points, result
        played = [d for d in game.deals if not d.is_thrown_in]
        assert len(played) == len(counted)


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=lambda r: ",".join(r) or "standard")
def test_simulated_games__heuristic_bots_too(rules):
    house = HouseRules.from_dict(rules)
    for seed in range(5):
        counted: list[tuple[dict, list[int]]] = []
        doc = simulate_game(seed, house, "heuristic",
                            observe=lambda result, points: counted.append((result, points)))
        assert read_game(doc).score().is_over
        for result, points in counted:
            record, _ = read_deal(result)
            assert list(score_deal(record, house)) == points
