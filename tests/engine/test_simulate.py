"""Whole simulated games (RULES.md "Game, kingdoms, deals", "Redeals in general", "Sweeps",
"Combined deals"): every game is a valid game file and the fast path plays the same games."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine.bots import HeuristicBot, RandomBot, plays_on_masks
from scorekeeper.engine.cards import SEVEN_OF_HEARTS, hand_masks, shuffled_indices
from scorekeeper.engine.contracts import ALL_CONTRACTS, Contract
from scorekeeper.engine.errors import RuleError
from scorekeeper.engine.gamefile import read_game
from scorekeeper.engine.play import is_sweep
from scorekeeper.engine.records import read_deal
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.scoring import contract_scores
from scorekeeper.engine.simrun import SimulationMismatch, check_game, run_simulation
from scorekeeper.engine.simulate import (
    MAX_REDEALS_IN_A_ROW,
    deal_options,
    play_game,
    simulate_game,
    simulate_games,
)

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
    {"self_capture": "king-credit", "combining": "combination"},
    {"partnership": True, "split_queens_replay": True, "self_capture": "king-credit"},
    {"no_redeal_requests": True, "kh_redeal_any_doubleton": True},
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
                later = [d["contracts"] for d in deals[i + 1 :] if d["king"] == deal["king"]]
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


@pytest.mark.parametrize(
    "combining, left, expected",
    [
        ("none", ALL_CONTRACTS, 5),
        ("complex", ALL_CONTRACTS, 2),
        ("complex", (Contract.TREX,), 1),
        ("combination", ALL_CONTRACTS, 16),  # 15 groups of the four negatives, and Trex
        ("combination", (Contract.DIAMONDS, Contract.QUEENS), 3),
    ],
)
def test_kingdoms__the_options_of_the_king(combining, left, expected):
    options = deal_options(list(left), HouseRules(combining=combining))
    assert len(options) == expected == len(set(options))
    assert all(Contract.TREX not in o or o == (Contract.TREX,) for o in options)


def test_fixed_order__only_the_next_contract_is_offered():
    rules = HouseRules.from_dict({"fixed_order": FIXED})
    assert deal_options(list(ALL_CONTRACTS), rules) == [(Contract.TREX,)]
    left = [c for c in ALL_CONTRACTS if c is not Contract.TREX]
    assert deal_options(left, rules) == [(Contract.QUEENS,)]


# --- the quick path: bots choosing on masks, points counted from the cards ---------------------
@pytest.mark.parametrize("rules", RULE_TABLE, ids=lambda r: ",".join(r) or "standard")
@pytest.mark.parametrize(
    "bot", ["heuristic", ("heuristic", "random", "heuristic", "random")], ids=["heuristic", "mixed"]
)
def test_simulate__quick_path_plays_the_same_games_as_the_deal_objects(rules, bot):
    house = HouseRules.from_dict(rules)
    bots = list(bot) if isinstance(bot, tuple) else bot
    for seed in range(4):
        assert simulate_game(seed, house, bots) == simulate_game(seed, house, bots, fast=False)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_TABLE, ids=lambda r: ",".join(r) or "standard")
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_simulate__points_counted_from_the_cards_are_the_scorers(rules, bot):
    """What the play counts, deal by deal and contract by contract, is what the validator and
    the scorer make of the game it wrote (the checking mode of ``scorekeeper simulate``)."""
    house = HouseRules.from_dict(rules)
    for seed in range(6):
        played = play_game(seed, house, bot)
        check_game(played, house)  # raises SimulationMismatch on any difference
        game = read_game(played.doc)
        assert played.deal_scores == game.score().deals
        assert played.totals == game.score().totals
        for fast in (True, False):
            again = play_game(seed, house, bot, fast=fast)
            assert again.points == played.points


def test_simulate__the_check_finds_a_count_that_differs(monkeypatch):
    """A count of the play that gives a contract's points to the wrong seats still sums to
    zero; only the check (the validator and the scorer) sees it."""
    from scorekeeper.engine import simulate

    real = simulate.contract_card_points

    def turned(*args):
        return {c: p[1:] + p[:1] for c, p in real(*args).items()}

    monkeypatch.setattr(simulate, "contract_card_points", turned)
    played = play_game(3, HouseRules())
    with pytest.raises(SimulationMismatch, match="the scorer counts"):
        check_game(played, HouseRules())
    with pytest.raises(SimulationMismatch):
        run_simulation(2, 3, HouseRules(), check=True)
    assert run_simulation(2, 3, HouseRules(), check=False).games == 2
    # the engine reads no environment: a run is checked when its caller asks (the command reads
    # SCOREKEEPER_CHECK_SIMULATED: tests/cli/test_cli_simulate.py)
    assert run_simulation(2, 3, HouseRules()).games == 2


class FirstCard(HeuristicBot):
    """Chooses its contracts like the heuristic bot, but always plays its first legal card."""

    def choose_play(self, deal, legal):
        return legal[0]


def test_simulate__a_bot_with_its_own_play_is_asked_through_the_deal_objects():
    assert plays_on_masks(HeuristicBot(0)) and plays_on_masks(RandomBot(0))
    assert plays_on_masks(AlwaysRedeal(0))  # its own redeals, the random bot's cards
    assert not plays_on_masks(FirstCard(0))
    first = simulate_game(2, HouseRules(), [FirstCard(0)] * 4)
    assert first == simulate_game(2, HouseRules(), [FirstCard(0)] * 4, fast=False)
    assert first != simulate_game(2, HouseRules(), "heuristic")
    read_game(first)


@pytest.mark.parametrize(
    "shape",
    [
        (Contract.KING_OF_HEARTS,),
        (Contract.QUEENS,),
        (Contract.DIAMONDS, Contract.COLLECTIONS),
        tuple(ALL_CONTRACTS[:4]),
        (Contract.TREX,),
    ],
    ids=lambda s: "+".join(c.value for c in s),
)
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_play_deal__one_deal_as_the_deal_objects_play_it(shape, bot):
    """The door for a contract advisor: one deal from given hands, played quickly, is the deal
    the bots play through the deal objects, with the scorer's points."""
    from scorekeeper.engine.bots import make_bot
    from scorekeeper.engine.play import new_deal
    from scorekeeper.engine.simulate import play_deal, play_out

    rules = HouseRules(partnership=True, self_capture="leader-credit")
    for seed in range(10):
        hands = hand_masks(shuffled_indices(random.Random(seed)))
        played = play_deal(hands, seed % 4, shape, rules, bot, random.Random(seed))
        rng = random.Random(seed)
        deal = new_deal(hands, seed % 4, shape, rules)
        play_out(deal, [make_bot(bot, rng)] * 4)
        assert played.result == deal.result()
        assert played.points == contract_scores(read_deal(played.result)[0], rules)
