"""RULES.md "Who wins": the highest total wins, the lowest with reverse_scores; ties share the
place; under partnership the team with the better sum wins, or with worst-loses the team of
the worst player loses; export adds places and winners and import recomputes them
(GAME_FORMAT.md "What the scorekeeper adds on export")."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, strategies as st

from gamebuilder import standard_game
from scorekeeper.engine import HouseRules, InvalidResult, game_to_dict, read_document, read_game
from scorekeeper.engine.scoring import places, team_result, winners

REVERSED = HouseRules(reverse_scores=True)


def reversed_game(**rules) -> dict:
    """The standard test game under reverse_scores, with seat 0 taking fewer diamonds and tricks
    and seat 2 more (the deals of kingdoms 1 and 2 changed as marked)."""
    doc = standard_game(rules={"reverse_scores": True, **rules})
    doc["deals"][2]["diamonds"] = [0, 3, 6, 4]  # kingdom 1; the others take [4, 3, 2, 4]
    doc["deals"][7]["diamonds"] = [0, 3, 6, 4]  # kingdom 2
    doc["deals"][4]["tricks"] = [0, 4, 6, 3]  # kingdom 1; the others take [3, 4, 3, 3]
    return doc


# Reversed, a diamond is +10, a trick +15, the K♥ +75, a queen +25 and the Trex places
# -200 -150 -100 -50. Every seat is King once, so each has each Trex place once (-500), takes
# the K♥ once (+75) and one queen a kingdom (+100).
#   seat 0:  8 diamonds,  9 tricks: -500 + 75 + 100 +  80 + 135 = -110
#   seat 1: 12 diamonds, 16 tricks: -500 + 75 + 100 + 120 + 240 =   35
#   seat 2: 16 diamonds, 15 tricks: -500 + 75 + 100 + 160 + 225 =   60
#   seat 3: 16 diamonds, 12 tricks: -500 + 75 + 100 + 160 + 180 =   15
TOTALS = (-110, 35, 60, 15)


def test_who_wins_reverse_scores_lowest_total_wins():
    scored = read_game(reversed_game()).score()
    assert scored.totals == TOTALS
    assert scored.winners == (0,)  # -110, the lowest; the highest (seat 2) is last
    assert scored.places == (1, 3, 4, 2)


def test_who_wins_highest_total_wins_by_default():
    doc = reversed_game()
    doc["rules"] = {}
    scored = read_game(doc).score()
    assert scored.totals == tuple(-t for t in TOTALS)  # the same cards, scored the usual way
    assert scored.winners == (0,)  # the same player wins
    assert scored.places == (1, 3, 4, 2)


def test_who_wins_reverse_scores_partnership_sum_lower_team_sum_wins():
    scored = read_game(reversed_game(partnership=True)).score()
    # seats 0+2: -110 + 60 = -50; seats 1+3: 35 + 15 = 50. The lower sum wins.
    assert scored.team_totals == (-50, 50)
    assert scored.team_result == "0+2"
    assert scored.winners == (0, 2)
    assert scored.places == (1, 2, 1, 2)


def test_who_wins_reverse_scores_partnership_worst_loses_highest_player_loses():
    scored = read_game(reversed_game(partnership=True, team_result="worst-loses")).score()
    # The worst individual score is the highest, seat 2's 60: seats 0+2 lose, though their
    # sum is the better one.
    assert scored.team_result == "1+3"
    assert scored.winners == (1, 3)
    assert scored.places == (2, 1, 2, 1)


@pytest.mark.parametrize(
    "totals, rules, expected",
    [
        ((15, 35, -65, 15), {"reverse_scores": True}, "0+2"),  # sums -50 and 50: lower wins
        ((15, 35, -65, 15), {}, "1+3"),  # higher wins
        ((15, 35, -65, 15), {"reverse_scores": True, "team_result": "worst-loses"}, "0+2"),  # 35
        ((15, 35, -65, 15), {"team_result": "worst-loses"}, "1+3"),  # -65
        ((20, 20, -30, -10), {"reverse_scores": True, "team_result": "worst-loses"}, "tie"),
        ((-20, 10, 30, 0), {"reverse_scores": True}, "tie"),  # 10 and 10
    ],
)
def test_who_wins_partnership_team_result(totals, rules, expected):
    assert team_result(totals, HouseRules(partnership=True, **rules)) == expected


@pytest.mark.parametrize(
    "totals, reverse, expected_places, expected_winners",
    [
        ((10, 10, -5, -15), True, (3, 3, 2, 1), (3,)),
        ((-10, -10, 5, 15), True, (1, 1, 3, 4), (0, 1)),  # ties share the place
        ((-10, -10, 5, 15), False, (3, 3, 2, 1), (3,)),
        ((0, 0, 0, 0), True, (1, 1, 1, 1), (0, 1, 2, 3)),
    ],
)
def test_who_wins_ties_share_the_place(totals, reverse, expected_places, expected_winners):
    rules = HouseRules(reverse_scores=reverse)
    assert places(totals, rules) == expected_places
    assert winners(totals, rules) == expected_winners


TOTALS_ST = st.tuples(*[st.integers(-3000, 3000)] * 4)


@given(TOTALS_ST, st.booleans(), st.booleans(), st.sampled_from(["sum", "worst-loses"]))
def test_who_wins_reverse_scores_is_the_usual_order_of_the_negated_totals(
    totals, partnership, reverse, rule
):
    rules = HouseRules(partnership=partnership, team_result=rule, reverse_scores=reverse)
    mirror = HouseRules(partnership=partnership, team_result=rule, reverse_scores=not reverse)
    negated = tuple(-t for t in totals)
    assert places(totals, rules) == places(negated, mirror)
    assert winners(totals, rules) == winners(negated, mirror)


@given(TOTALS_ST, st.booleans())
def test_who_wins_a_place_is_one_more_than_the_players_who_did_better(totals, reverse):
    rules = HouseRules(reverse_scores=reverse)
    key = sorted(totals) if reverse else sorted(totals, reverse=True)
    expected = tuple(key.index(t) + 1 for t in totals)  # first index: ties share the place
    assert places(totals, rules) == expected
    best = min(totals) if reverse else max(totals)
    assert winners(totals, rules) == tuple(s for s in range(4) if totals[s] == best)


@given(TOTALS_ST, st.booleans(), st.sampled_from(["sum", "worst-loses"]))
def test_who_wins_partnership_partners_share_their_team_place(totals, reverse, rule):
    rules = HouseRules(partnership=True, reverse_scores=reverse, team_result=rule)
    p = places(totals, rules)
    assert p[0] == p[2] and p[1] == p[3] and 1 in p and set(p) <= {1, 2}
    result = team_result(totals, rules)
    assert winners(totals, rules) == {"0+2": (0, 2), "1+3": (1, 3), "tie": (0, 1, 2, 3)}[result]


# --- export and import --------------------------------------------------------------------------
def refused(doc: dict) -> list[str]:
    with pytest.raises(InvalidResult) as info:
        read_document(doc)
    return [str(p) for p in info.value.problems]


def test_who_wins_export_adds_places_and_winners_to_a_finished_game():
    doc = game_to_dict(read_game(reversed_game(partnership=True)), with_scores=True)
    assert doc["totals"] == list(TOTALS)
    assert doc["places"] == [1, 2, 1, 2] and doc["winners"] == [0, 2]
    assert read_game(copy.deepcopy(doc)).score().winners == (0, 2)  # recomputed and equal


def test_who_wins_export_of_an_unfinished_game_has_no_places_or_winners():
    doc = reversed_game()
    del doc["deals"][10:]
    out = game_to_dict(read_game(doc), with_scores=True)
    assert "totals" in out and "places" not in out and "winners" not in out
    out["winners"] = [0]
    assert refused(out) == ["'winners' is given, but the game is not over, so nobody has won yet"]


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("winners", [2], "The winners given are seats [2], but the winners are seats [0]"),
        (
            "places",
            [4, 3, 1, 2],
            "The places given are [4, 3, 1, 2], but the places are [1, 3, 4, 2]",
        ),
    ],
)
def test_who_wins_import_refuses_places_and_winners_that_differ(key, value, message):
    doc = game_to_dict(read_game(reversed_game()), with_scores=True)
    doc[key] = value
    assert refused(doc) == [message]


def test_who_wins_import_names_the_game_whose_winners_differ():
    good = game_to_dict(read_game(reversed_game()), with_scores=True)
    bad = copy.deepcopy(good)
    bad["winners"] = [2]  # the highest total: the winner before the rule book said otherwise
    doc = {"format": "trex-games/1", "games": [good, bad]}
    assert refused(doc) == [
        "Game 2: the winners given are seats [2], but the winners are seats [0]"
    ]
