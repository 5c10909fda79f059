"""Validation of entered results (RULES.md "What the scorekeeper takes" and "Combined deals")."""

from __future__ import annotations

import copy

import pytest

from gamebuilder import complex_deal, complex_game, standard_deal, standard_game
from scorekeeper.engine import HouseRules, InvalidResult, Progress, read_game, validate_entry

NAMES = ("Aya", "Bilal", "Carla", "Dana")


def problems_for(raw: dict, rules: dict | None = None, first_king: int = 0) -> list[str]:
    progress = Progress(HouseRules.from_dict(rules or {}), first_king, NAMES)
    record, problems = validate_entry(raw, progress)
    assert (record is None) == bool(problems)
    return [str(p) for p in problems]


def test_diamonds__counts_must_sum_to_13():
    raw = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 2, 5, 1]}
    assert problems_for(raw) == ["Deal 1, Diamonds: the counts add up to 12, not 13"]


def test_collections__counts_must_sum_to_13():
    raw = {"king": 0, "contracts": ["collections"], "tricks": [4, 2, 5, 3]}
    assert problems_for(raw) == ["Deal 1, Collections: the counts add up to 14, not 13"]


@pytest.mark.parametrize(
    "counts, message",
    [
        ([4, 2, 5.5, 1.5], "the count for Carla must be a whole number, not 5.5"),
        ([4, -2, 5, 6], "the count for Bilal cannot be negative"),
        ([4, 2, 7], "give four counts, one per player"),
        ([4, True, 5, 3], "the count for Bilal must be a whole number, not True"),
    ],
)
def test_counts__whole_non_negative_four(counts, message):
    raw = {"king": 0, "contracts": ["diamonds"], "diamonds": counts}
    assert any(message in p for p in problems_for(raw))


@pytest.mark.parametrize(
    "order, message",
    [
        ([0, 1, 2], "give the finishing order of all four players"),
        ([0, 1, 1, 3], "Bilal finishes twice in the order"),
        ([0, 1, 2, 4], "must be a seat from 0 to 3, not 4"),
    ],
)
def test_trex__a_full_finishing_order(order, message):
    raw = {"king": 0, "contracts": ["trex"], "trex_order": order}
    assert any(message in p for p in problems_for(raw))


def test_doubling__refused_when_doubling_is_off():
    raw = {
        "king": 0,
        "contracts": ["king_of_hearts"],
        "king_of_hearts": {"taker": 1, "doubled_by": 2},
    }
    assert problems_for(raw, {"doubling": False}) == [
        "Deal 1, King of Hearts: the K♥ cannot be doubled: doubling is off in this game"
    ]
    assert problems_for(raw) == []


def test_self_capture__led_by_only_under_leader_credit_when_holder_took_it():
    holder_took = {"taker": 2, "doubled_by": 2}
    raw = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": holder_took}
    assert problems_for(raw) == []
    assert "say who led to that trick" in problems_for(raw, {"self_capture": "leader-credit"})[0]
    raw["king_of_hearts"] = {**holder_took, "led_by": 1}
    assert "who led matters only" in problems_for(raw)[0]
    assert problems_for(raw, {"self_capture": "leader-credit"}) == []
    raw["king_of_hearts"] = {"taker": 1, "doubled_by": 2, "led_by": 1}
    assert "who led matters only" in problems_for(raw, {"self_capture": "leader-credit"})[0]


def test_queens__each_queen_taken_by_exactly_one_player():
    raw = standard_deal(0, "queens")
    del raw["queens"]["clubs"]
    assert "say who took each of the four queens" in problems_for(raw)[0]


def test_seats__out_of_range_taker():
    raw = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 7}}
    assert "must be a seat from 0 to 3, not 7" in problems_for(raw)[0]


def test_result_fields__present_exactly_for_the_contracts_listed():
    raw = standard_deal(0, "diamonds")
    raw["tricks"] = [3, 4, 3, 3]
    assert "'tricks' belongs to a contract that this deal did not play" in problems_for(raw)[0]
    raw = {"king": 0, "contracts": ["diamonds"]}
    assert problems_for(raw) == ["Deal 1, Diamonds: the result is missing"]


# -- combined deals: the cross-checks reject what cannot be, accept what sits on the limit

COMBO = {"combining": "combination"}


def combined(**fields) -> dict:
    base = complex_deal(0)
    base.update(fields)
    return base


def test_combination__q_diamonds_taker_took_a_diamond():
    bad = combined(
        diamonds=[0, 6, 3, 4],
        queens={
            "spades": {"taker": 1},
            "hearts": {"taker": 2},
            "diamonds": {"taker": 0},
            "clubs": {"taker": 3},
        },
        tricks=[1, 5, 3, 4],
    )
    assert "Aya took the Q♦, so they took at least one diamond" in problems_for(bad, COMBO)[0]
    bad["diamonds"] = [1, 5, 3, 4]
    assert problems_for(bad, COMBO) == []


def test_combination__no_trick_no_penalty_card():
    bad = combined(king_of_hearts={"taker": 0})
    assert "Aya took no trick, so they cannot have taken the K♥" in problems_for(bad, COMBO)[0]


def test_combination__penalty_cards_fit_four_per_trick():
    # seat 1: 9 diamonds in 2 tricks; cannot be
    bad = combined(
        diamonds=[0, 9, 2, 2],
        tricks=[0, 2, 5, 6],
        queens={
            "spades": {"taker": 2},
            "hearts": {"taker": 2},
            "diamonds": {"taker": 1},
            "clubs": {"taker": 3},
        },
        king_of_hearts={"taker": 3},
    )
    msgs = problems_for(bad, COMBO)
    assert msgs == [
        "Deal 1, Collections: Bilal took 9 penalty cards; at four cards a trick "
        "that takes at least 3 tricks, not 2"
    ]
    # exactly on the limit: 8 distinct penalty cards in 2 tricks (Q♦ counted once)
    ok = combined(
        diamonds=[0, 8, 3, 2],
        tricks=[0, 2, 5, 6],
        queens={
            "spades": {"taker": 2},
            "hearts": {"taker": 2},
            "diamonds": {"taker": 1},
            "clubs": {"taker": 3},
        },
        king_of_hearts={"taker": 3},
    )
    assert problems_for(ok, COMBO) == []


def test_complex__one_deal_plays_all_four_negatives():
    raw = {
        "king": 0,
        "contracts": ["diamonds", "queens"],
        "diamonds": [4, 3, 2, 4],
        "queens": standard_deal(0, "queens")["queens"],
    }
    assert "all four negative contracts" in problems_for(raw, {"combining": "complex"})[0]
    assert "one contract per deal" in problems_for(raw)[0]
    assert problems_for(raw, COMBO) == []


def test_combination__trex_always_alone():
    raw = {
        "king": 0,
        "contracts": ["trex", "diamonds"],
        "diamonds": [4, 3, 2, 4],
        "trex_order": [0, 1, 2, 3],
    }
    assert "Trex is always played alone" in problems_for(raw, COMBO)[0]


# -- the game: kingdoms, Kings, rotation


def refused(doc: dict) -> list[str]:
    with pytest.raises(InvalidResult) as info:
        read_game(doc)
    return [str(p) for p in info.value.problems]


def test_kingdom__no_contract_twice():
    doc = standard_game()
    doc["deals"][1] = standard_deal(0, "trex")
    assert "Deal 2, Trex: Trex has already been played in this kingdom" in refused(doc)


def test_kingdom__every_deal_dealt_by_its_king():
    doc = standard_game()
    doc["deals"][2]["king"] = 1
    assert refused(doc)[0] == "Deal 3: this deal belongs to Aya's kingdom, not Bilal's"


def test_next_king__default_rotation_is_to_the_right():
    doc = standard_game()
    for deal in doc["deals"][5:10]:
        deal["king"] = 2
    assert refused(doc)[0].startswith("Deal 6: the next King is Bilal")


def test_next_king__table_picks_any_player_not_yet_king():
    doc = standard_game()
    kings = [0, 2, 3, 1]
    for i, deal in enumerate(doc["deals"]):
        deal["king"] = kings[i // 5]
    doc["rules"] = {"rotation": "table-picks"}
    assert read_game(doc).score().is_over
    for deal in doc["deals"][10:15]:
        deal["king"] = 0
    assert refused(doc)[0] == "Deal 11: Aya has already been King"


def test_game__four_kingdoms_and_then_the_end():
    doc = standard_game()
    doc["deals"].append(standard_deal(0, "trex"))
    assert refused(doc) == [
        "Deal 21: the game is over after four kingdoms; this deal is one too many"
    ]


def test_redeals__thrown_in_and_swept_deals_use_up_nothing():
    doc = standard_game(rules={"sweep_replay": {"collections_tricks": 10}})
    doc["deals"].insert(1, {"king": 0, "thrown_in": {"reason": "kh-redeal", "by": 3}})
    swept = {"king": 0, "contracts": ["collections"], "tricks": [0, 13, 0, 0]}
    doc["deals"].insert(2, swept)
    game = read_game(doc)
    scored = game.score()
    assert scored.deals[1] == scored.deals[2] == (0, 0, 0, 0)
    assert scored.is_over and len(game.deals) == 22


def test_fixed_order__contracts_in_the_set_order():
    order = ["trex", "king_of_hearts", "diamonds", "queens", "collections"]
    doc = standard_game(rules={"fixed_order": order})
    assert read_game(doc).score().is_over
    doc["deals"][0], doc["deals"][1] = doc["deals"][1], doc["deals"][0]
    assert refused(doc)[0] == "Deal 1: under the fixed order the next contract is Trex"


def test_complex__kingdom_is_complex_and_trex_in_either_order():
    doc = complex_game()
    doc["deals"][0], doc["deals"][1] = doc["deals"][1], doc["deals"][0]
    assert read_game(doc).score().is_over


def test_game_file__round_trips_through_load_and_dump():
    from scorekeeper.engine import game_to_dict

    for doc in (standard_game(), complex_game(rules={"partnership": True})):
        doc["deals"][3]["note"] = "kept as given"
        assert game_to_dict(read_game(doc)) == doc


def test_game_file__scores_given_and_different_are_refused():
    from scorekeeper.engine import game_to_dict

    doc = game_to_dict(read_game(standard_game()), with_scores=True)
    assert read_game(copy.deepcopy(doc))
    doc["deals"][6]["scores"] = [0, 0, 0, 0]
    assert refused(doc)[0].startswith("Deal 7: the scores given are [0, 0, 0, 0]")


def test_players__the_same_name_twice_is_refused():
    doc = standard_game(players=["Aya", "Bilal", "aya ", "Dana"])
    assert refused(doc) == ["'aya' is named twice; each player needs their own name"]


def test_rules__unknown_key_is_an_error_not_a_default():
    doc = standard_game(rules={"dubling": True})
    assert refused(doc)[0].startswith("Unknown house rule 'dubling'; known rules:")


def test_fixed_order__a_complex_deal_takes_the_place_of_its_first_contract():
    order = ["king_of_hearts", "trex", "diamonds", "queens", "collections"]
    doc = complex_game(rules={"fixed_order": order})
    for k in range(4):  # complex deal first (K♥ leads the order), then Trex
        doc["deals"][2 * k], doc["deals"][2 * k + 1] = doc["deals"][2 * k + 1], doc["deals"][2 * k]
    assert read_game(doc).score().is_over
    assert (
        "the next contract is King of Hearts"
        in refused(complex_game(rules={"fixed_order": order}))[0]
    )


def test_game_file__team_keys_given_and_different_are_refused():
    from scorekeeper.engine import game_to_dict

    doc = game_to_dict(read_game(standard_game(rules={"partnership": True})), with_scores=True)
    doc["team_result"] = "tie" if doc["team_result"] != "tie" else "0+2"
    assert refused(doc)[0].startswith("The team result given is ")
