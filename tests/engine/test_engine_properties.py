"""Properties over many seeded simulated games (RULES.md as a whole).

Every simulated deal's result must pass validation, and every game must score to zero. That
each recorded result is what the cards played hold is checked in test_rules_tally.py, from the
tricks themselves.
"""

from __future__ import annotations

import pytest

from scorekeeper.engine import HouseRules, read_deal, read_game
from scorekeeper.engine.simulate import simulate_game

VARIANTS = [
    {},
    {"self_capture": "leader-credit"},
    {"combining": "complex", "partnership": True},
    {"combining": "combination", "must_discard_penalty": True},
    {"swap_diamonds_collections": True, "no_heart_lead": True, "reverse_scores": True},
    {
        "sweep_replay": {"collections_tricks": 10},
        "rotation": "table-picks",
        "kh_redeal_any_doubleton": True,
    },
    {
        "doubling": False,
        "fixed_order": ["trex", "queens", "king_of_hearts", "diamonds", "collections"],
    },
    {
        "combining": "combination",
        "self_capture": "leader-credit",
        "team_result": "worst-loses",
        "partnership": True,
    },
]
GAMES_PER_VARIANT = 125  # 8 variants: 1,000 games


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(r) or "standard")
def test_simulated_games__validation_accepts_and_every_game_sums_to_zero(rules):
    house = HouseRules.from_dict(rules)
    for seed in range(GAMES_PER_VARIANT):
        doc = simulate_game(seed, house, "random")
        game = read_game(doc)  # every deal and the game's order validate
        scored = game.score()  # raises if a complete kingdom does not sum to zero
        assert scored.is_over and sum(scored.totals) == 0
        for result in doc["deals"]:
            record, problems = read_deal(result)
            assert not problems and record is not None


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=lambda r: ",".join(r) or "standard")
def test_simulated_games__heuristic_bots_too(rules):
    house = HouseRules.from_dict(rules)
    for seed in range(5):
        assert read_game(simulate_game(seed, house, "heuristic")).score().is_over
