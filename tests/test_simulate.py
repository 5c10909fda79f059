"""Whole simulated games (RULES.md "Game, kingdoms, deals", "Redeals in general", "Sweeps",
"Combined deals"): every game is a valid game file and the fast path plays the same games."""
from __future__ import annotations

import random

import pytest

from scorekeeper.engine.bots import RandomBot
from scorekeeper.engine.cards import SEVEN_OF_HEARTS, hand_masks, shuffled_indices
from scorekeeper.engine.contracts import ALL_CONTRACTS, Contract
from scorekeeper.engine.errors import RuleError
from scorekeeper.engine.gamefile import read_game
from scorekeeper.engine.play import is_sweep
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.simulate import (MAX_REDEALS_IN_A_ROW, deal_options, simulate_game,
                                         simulate_games)

FIXED = ["trex", "queens", "king_of_hearts", "diamonds", "collections"]
RULE_TABLE = [
    {},
    {"no_heart_lead": True, "must_discard_penalty": True},
    {"combining": "complex"},
    {"combining": "combination", "self_capture": "leader-credit"},
    {"sweep_replay": {"collections_tricks": 7}, "rotation": "table-picks"},
    {"partnership": True, "team_result": "worst-loses", "kh_redeal_any_doubleton": True},
    {"fixed_order": FIXED},
    {"fixed_order": FIXED, "combining": "combination"},
    {"reverse_scores": True, "swap_diamonds_collections": True, "doubling": False},
]


@pytest.mark.parametrize("rules", RULE_TABLE, ids=lambda r: ",".join(r) or "standard")
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_simulate__every_game_is_a_valid_zero_sum_game(rules, bot):
    house = HouseRules.from_dict(rules)
    for seed in range(4):
        doc = simulate_game(seed, house, bot)
        assert doc["format"] == "trex-game/1" and doc["rules"] == house.to_dict(only_changed=True)
        game = read_game(doc)  # validates every deal and the order of kingdoms
        assert sum(game.score().totals) == 0
        kings = []
        for deal in doc["deals"]:
            if deal["king"] not in kings:
                kings.append(deal["king"])
        assert sorted(kings) == [0, 1, 2, 3]


@pytest.mark.parametrize("rules", RULE_TABLE, ids=lambda r: ",".join(r) or "standard")
def test_simulate__fast_path_plays_the_same_games(rules):
    house = HouseRules.from_dict(rules)
    for seed in range(6):
        assert simulate_game(seed, house, fast=True) == simulate_game(seed, house, fast=False)


def test_simulate__same_seed_same_game():
    assert simulate_game(11) == simulate_game(11)
    assert simulate_game(11) != simulate_game(12)
    assert list(simulate_games(3, 40)) == [simulate_game(40 + i) for i in range(3)]


def test_simulate__first_king_was_dealt_the_seven_of_hearts():
    for seed in range(5):
        hands = hand_masks(shuffled_indices(random.Random(seed)))
        holder = next(s for s in range(4) if hands[s] >> SEVEN_OF_HEARTS.index & 1)
        doc = simulate_game(seed)
        assert doc["first_king"] == holder == doc["deals"][0]["king"]


def test_simulate__kings_rotate_to_the_right():
    doc = simulate_game(3)
    kings = [d["king"] for d in doc["deals"] if "contracts" in d]
    first = doc["first_king"]
    assert kings == [(first + k) % 4 for k in range(4) for _ in range(5)]


class AlwaysRedeal(RandomBot):
    def wants_redeal(self, hand: int, reason: str) -> bool:
        return True


def test_simulate__redeals_are_recorded_and_bounded():
    bot = AlwaysRedeal(0)
    found = False
    for seed in range(20):
        doc = simulate_game(seed, HouseRules(kh_redeal_any_doubleton=True), [bot] * 4)
        read_game(doc)
        run = 0
        for deal in doc["deals"]:
            if "thrown_in" in deal:
                found = True
                assert deal["thrown_in"]["reason"] in ("kh-redeal", "trex-twos")
                run += 1
                assert run <= MAX_REDEALS_IN_A_ROW
            else:
                run = 0
    assert found


def test_simulate__a_swept_deal_is_played_again_unless_kept():
    rules = HouseRules(sweep_replay=7)
    swept = kept = 0
    for seed in range(10):
        doc = simulate_game(seed, rules)
        read_game(doc)
        deals = [d for d in doc["deals"] if "contracts" in d]
        for i, deal in enumerate(deals):
            if is_sweep(deal, rules):
                later = [d["contracts"] for d in deals[i + 1:] if d["king"] == deal["king"]]
                if deal.get("sweep_kept"):
                    kept += 1
                    assert deal["contracts"] not in later
                else:
                    swept += 1
                    assert deal["contracts"] in later
            else:
                assert "sweep_kept" not in deal
    assert swept and kept


def test_simulate__table_picks_each_player_king_once():
    doc = simulate_game(5, HouseRules(rotation="table-picks"))
    kings = []
    for deal in doc["deals"]:
        if not kings or kings[-1] != deal["king"]:
            kings.append(deal["king"])
    assert sorted(kings) == [0, 1, 2, 3]


def test_simulate__player_names():
    assert simulate_game(0, players=["Aya", "Bilal", "Carla", "ليلى"])["players"][3] == "ليلى"
    assert simulate_game(0)["players"] == ["Random 0", "Random 1", "Random 2", "Random 3"]


class Stubborn(RandomBot):
    def choose_deal(self, hand, options, rules):
        return (Contract.TREX, Contract.DIAMONDS)


def test_simulate__the_king_must_choose_an_offered_option():
    with pytest.raises(RuleError, match="not one of the contracts left"):
        simulate_game(0, None, [Stubborn(0)] * 4)


@pytest.mark.parametrize("combining, left, expected", [
    ("none", ALL_CONTRACTS, 5),
    ("complex", ALL_CONTRACTS, 2),
    ("complex", (Contract.TREX,), 1),
    ("combination", ALL_CONTRACTS, 16),  # 15 groups of the four negatives, and Trex
    ("combination", (Contract.DIAMONDS, Contract.QUEENS), 3),
])
def test_kingdoms__the_options_of_the_king(combining, left, expected):
    options = deal_options(list(left), HouseRules(combining=combining))
    assert len(options) == expected == len(set(options))
    assert all(Contract.TREX not in o or o == (Contract.TREX,) for o in options)


def test_fixed_order__only_the_next_contract_is_offered():
    rules = HouseRules.from_dict({"fixed_order": FIXED})
    assert deal_options(list(ALL_CONTRACTS), rules) == [(Contract.TREX,)]
    left = [c for c in ALL_CONTRACTS if c is not Contract.TREX]
    assert deal_options(left, rules) == [(Contract.QUEENS,)]
