"""Scoring, clause by clause of RULES.md "The five contracts" and "Partnership"."""

from __future__ import annotations

import pytest

from gamebuilder import complex_game, standard_game
from scorekeeper.engine import HouseRules, read_deal, read_game, score_deal
from scorekeeper.engine.contracts import ALL_CONTRACTS
from scorekeeper.engine.scoring import contract_total, team_result


def score(raw: dict, **rules) -> tuple[int, ...]:
    deal, problems = read_deal({"king": 0, **raw})
    assert not problems, problems
    return score_deal(deal, HouseRules(**rules))


KH = "king_of_hearts"


@pytest.mark.parametrize(
    "capture, rules, expected",
    [
        # RULES.md King of Hearts: taking the K♥ costs 75
        ({"taker": 2}, {}, (0, 0, -75, 0)),
        # Doubling: another player takes it: taker −150, holder +75
        ({"taker": 2, "doubled_by": 1}, {}, (0, 75, -150, 0)),
        # the holder takes it, self_capture single: holder −75
        ({"taker": 1, "doubled_by": 1}, {}, (0, -75, 0, 0)),
        # leader-credit: holder −150 and the leader +75
        (
            {"taker": 1, "doubled_by": 1, "led_by": 3},
            {"self_capture": "leader-credit"},
            (0, -150, 0, 75),
        ),
        # leader-credit, unless the holder led that trick: −75
        (
            {"taker": 1, "doubled_by": 1, "led_by": 1},
            {"self_capture": "leader-credit"},
            (0, -75, 0, 0),
        ),
    ],
)
def test_king_of_hearts__doubling(capture, rules, expected):
    assert score({"contracts": [KH], KH: capture}, **rules) == expected


def queens(**takers) -> dict:
    base = {
        "spades": {"taker": 0},
        "hearts": {"taker": 0},
        "diamonds": {"taker": 0},
        "clubs": {"taker": 0},
    }
    base.update(takers)
    return {"contracts": ["queens"], "queens": base}


@pytest.mark.parametrize(
    "raw, rules, expected",
    [
        (queens(), {}, (-100, 0, 0, 0)),
        (queens(hearts={"taker": 2, "doubled_by": 3}), {}, (-75, 0, -50, 25)),
        (queens(hearts={"taker": 3, "doubled_by": 3}), {}, (-75, 0, 0, -25)),
        (
            queens(hearts={"taker": 3, "doubled_by": 3, "led_by": 0}),
            {"self_capture": "leader-credit"},
            (-50, 0, 0, -50),
        ),
    ],
)
def test_queens__each_queen_and_its_doubling(raw, rules, expected):
    assert score(raw, **rules) == expected


@pytest.mark.parametrize(
    "swap, expected", [(False, (-40, -30, -20, -40)), (True, (-60, -45, -30, -60))]
)
def test_diamonds__per_diamond_and_swap_variant(swap, expected):
    raw = {"contracts": ["diamonds"], "diamonds": [4, 3, 2, 4]}
    assert score(raw, swap_diamonds_collections=swap) == expected


@pytest.mark.parametrize(
    "swap, expected", [(False, (-45, -60, -45, -45)), (True, (-30, -40, -30, -30))]
)
def test_collections__per_trick_and_swap_variant(swap, expected):
    raw = {"contracts": ["collections"], "tricks": [3, 4, 3, 3]}
    assert score(raw, swap_diamonds_collections=swap) == expected


def test_trex__places_pay_200_150_100_50():
    assert score({"contracts": ["trex"], "trex_order": [2, 0, 3, 1]}) == (150, 50, 200, 100)


def test_reverse_scores__negates_everything():
    raw = {"contracts": ["trex"], "trex_order": [2, 0, 3, 1]}
    assert score(raw, reverse_scores=True) == (-150, -50, -200, -100)


@pytest.mark.parametrize("swap", [False, True])
def test_five_contracts__totals_per_deal(swap):
    rules = HouseRules(swap_diamonds_collections=swap)
    totals = [contract_total(c, rules) for c in ALL_CONTRACTS]
    expected = [-75, -195, -100, -130, 500] if swap else [-75, -130, -100, -195, 500]
    assert totals == expected
    assert sum(totals) == 0


def test_combined_deals__score_each_contract_as_if_alone():
    game = read_game(complex_game())
    complex_scores = game.score().deals[1]
    # K♥ 1: −75; diamonds 0,6,3,4 ×−10; queens 1,2,1,3 ×−25; tricks 0,6,3,4 ×−15
    assert complex_scores == (0, -75 - 60 - 50 - 90, -30 - 25 - 45, -40 - 25 - 60)


def test_combined_deals__q_diamonds_counts_as_diamond_and_queen():
    raw = {
        "contracts": ["diamonds", "queens"],
        "diamonds": [1, 4, 4, 4],
        "queens": {
            "spades": {"taker": 1},
            "hearts": {"taker": 2},
            "diamonds": {"taker": 0},
            "clubs": {"taker": 3},
        },
    }
    assert score(raw, combining="combination")[0] == -10 - 25


def test_sweeps__a_swept_deal_scores_nothing():
    raw = {"contracts": ["collections"], "tricks": [10, 1, 1, 1]}
    assert score(raw, sweep_replay=10) == (0, 0, 0, 0)
    assert score(raw, sweep_replay=13) == (-150, -15, -15, -15)
    assert score(raw) == (-150, -15, -15, -15)


def test_redeals__thrown_in_deal_scores_nothing():
    assert score({"thrown_in": {"reason": "kh-redeal", "by": 2}}) == (0, 0, 0, 0)


@pytest.mark.parametrize("maker", [standard_game, complex_game])
@pytest.mark.parametrize(
    "rules", [{}, {"reverse_scores": True}, {"swap_diamonds_collections": True}]
)
def test_zero_sum__every_kingdom_and_the_game_sum_to_zero(maker, rules):
    scored = read_game(maker(rules=rules)).score()
    assert len(scored.kingdoms) == 4
    for _king, subtotal, complete in scored.kingdoms:
        assert complete and sum(subtotal) == 0
    assert sum(scored.totals) == 0 and scored.is_over


@pytest.mark.parametrize(
    "totals, rule, expected",
    [
        ((100, -50, 20, -70), "sum", "0+2"),
        ((-100, -50, 20, 130), "sum", "1+3"),
        ((10, -10, -10, 10), "sum", "tie"),
        ((300, 10, -200, -110), "worst-loses", "1+3"),  # seat 2 is worst: team 0+2 loses
        ((300, -210, -200, 110), "worst-loses", "0+2"),
    ],
)
def test_partnership__team_result(totals, rule, expected):
    assert team_result(totals, HouseRules(partnership=True, team_result=rule)) == expected


def test_partnership__team_totals_in_game_score():
    scored = read_game(standard_game(rules={"partnership": True})).score()
    t = scored.totals
    assert scored.team_totals == (t[0] + t[2], t[1] + t[3])
