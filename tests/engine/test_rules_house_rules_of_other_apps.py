"""RULES.md's house rules of other Trex apps (issue 29), clause by clause, with numbers worked
by hand: ``self_capture: king-credit``, doubling unchanged by partnership,
``split_queens_replay`` and ``no_redeal_requests``; through the engine, the bots, the advisor,
game files and the pages."""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine import HouseRules, InvalidResult, Progress, RulesError, read_deal, read_game
from scorekeeper.engine.advisor.baseline import play_rules
from scorekeeper.engine.advisor.core import _own_redeals
from scorekeeper.engine.advisor.playout import REPLAYED, THROWN_IN, play_choice
from scorekeeper.engine.cards import parse_cards
from scorekeeper.engine.contracts import Contract
from scorekeeper.engine.play import redeal_requests
from scorekeeper.engine.scoring import score_deal
from scorekeeper.engine.simulate import play_game

from history_helpers import query
from test_transfer import upload
from web_helpers import hidden_fields, soup

KING_CREDIT = HouseRules(self_capture="king-credit")
PARTNERS = HouseRules(partnership=True)
SPLIT = HouseRules(partnership=True, split_queens_replay=True)
NO_REQUESTS = HouseRules(no_redeal_requests=True)
SUITS = ("spades", "hearts", "diamonds", "clubs")


def deal(raw: dict):
    record, problems = read_deal(raw)
    assert record is not None, problems
    return record


def kh(king: int, taker: int, doubled_by: int | None = None) -> dict:
    capture = {"taker": taker} | ({"doubled_by": doubled_by} if doubled_by is not None else {})
    return {"king": king, "contracts": ["king_of_hearts"], "king_of_hearts": capture}


def queens(king: int, takers, doubled: dict[str, int] | None = None, contracts=("queens",)) -> dict:
    doubled = doubled or {}
    out = {
        "king": king,
        "contracts": list(contracts),
        "queens": {
            s: {"taker": t} | ({"doubled_by": doubled[s]} if s in doubled else {})
            for s, t in zip(SUITS, takers)
        },
    }
    return out


# -- Doubling, self_capture: king-credit ----------------------------------------------------
def test_doubling_king_credit_holder_takes_own_doubled_kh_holder_minus_150_king_plus_75():
    # The King (seat 0) dealt; seat 2 doubled the K♥ and took it back.
    assert score_deal(deal(kh(0, 2, 2)), KING_CREDIT) == (75, 0, -150, 0)


def test_doubling_king_credit_the_king_is_the_holder_scores_minus_75():
    assert score_deal(deal(kh(1, 1, 1)), KING_CREDIT) == (0, -75, 0, 0)


def test_doubling_king_credit_another_player_takes_it_as_ever_minus_150_plus_75():
    assert score_deal(deal(kh(0, 3, 2)), KING_CREDIT) == (0, 0, 75, -150)


def test_queens_king_credit_holder_takes_own_doubled_queen_minus_50_king_plus_25():
    # King seat 3; seat 1 doubled Q♠ and took it; the other queens went to seat 2, undoubled.
    record = deal(queens(3, (1, 2, 2, 2), {"spades": 1}))
    assert score_deal(record, KING_CREDIT) == (0, -50, -75, 25)


def test_queens_king_credit_the_king_is_the_holder_scores_minus_25():
    record = deal(queens(3, (3, 2, 2, 2), {"spades": 3}))
    assert score_deal(record, KING_CREDIT) == (0, 0, -75, -25)


def test_doubling_king_credit_every_variant_keeps_the_deal_at_minus_75():
    for king in range(4):
        for holder in range(4):
            for taker in range(4):
                assert sum(score_deal(deal(kh(king, taker, holder)), KING_CREDIT)) == -75


def test_doubling_king_credit_needs_no_word_of_who_led():
    raw = kh(0, 2, 2)
    raw["king_of_hearts"]["led_by"] = 1
    doc = {
        "format": "trex-game/1",
        "players": ["A", "B", "C", "D"],
        "rules": {"self_capture": "king-credit"},
        "first_king": 0,
        "deals": [raw],
    }
    with pytest.raises(InvalidResult) as info:
        read_game(doc)
    assert [p.code for p in info.value.problems] == ["led_by_unneeded"]


# -- Partnership: doubling unchanged -------------------------------------------------------
def test_partnership_doubling_unchanged_a_partner_taking_the_holders_card_is_another_player():
    # Seat 0 doubled the K♥, partner seat 2 took it: taker −150, holder +75; the team −75.
    scores = score_deal(deal(kh(1, 2, 0)), PARTNERS)
    assert scores == (75, 0, -150, 0) and scores[0] + scores[2] == -75
    queen = score_deal(deal(queens(1, (2, 1, 1, 1), {"spades": 0})), PARTNERS)
    assert queen == (25, -75, -50, 0) and queen[0] + queen[2] == -25


# -- Partnership: split_queens_replay ------------------------------------------------------
def split_game(deals: list[dict], rules: dict | None = None) -> dict:
    return {
        "format": "trex-game/1",
        "players": ["A", "B", "C", "D"],
        "rules": rules or {"partnership": True, "split_queens_replay": True},
        "first_king": 0,
        "deals": deals,
    }


def test_split_queens_replay_two_and_two_is_replayed_and_queens_stays_open():
    game = read_game(split_game([queens(0, (0, 1, 2, 3)), queens(0, (0, 0, 2, 1))]))
    assert game.score().deals[0] == (0, 0, 0, 0)
    progress = Progress.of(game.rules, 0, game.deals[:1])
    assert Contract.QUEENS in progress.contracts_left()
    assert game.score().deals[1] == (-50, -25, -25, 0)


def test_split_queens_replay_doubled_queens_change_nothing():
    record = deal(queens(0, (0, 1, 2, 1), {"spades": 1, "hearts": 1}))
    assert score_deal(record, SPLIT) == (0, 0, 0, 0)


def test_split_queens_replay_a_three_one_split_scores():
    assert score_deal(deal(queens(0, (0, 0, 2, 1))), SPLIT) == (-50, -25, -25, 0)


def test_split_queens_replay_a_combined_deal_is_not_affected():
    rules = HouseRules(partnership=True, split_queens_replay=True, combining="combination")
    raw = queens(0, (0, 1, 2, 3), contracts=("diamonds", "queens"))
    raw["diamonds"] = [4, 3, 3, 3]
    assert score_deal(deal(raw), rules) == (-65, -55, -55, -55)


def test_split_queens_replay_only_with_partnership():
    with pytest.raises(RulesError) as info:
        HouseRules.from_dict({"split_queens_replay": True})
    assert str(info.value) == (
        "house rule 'split_queens_replay' is played only with 'partnership' set to true"
    )


def test_split_queens_replay_the_sheet_and_a_file_say_replayed(tmp_path):
    game = read_game(split_game([queens(0, (0, 1, 2, 3))]))
    from scorekeeper.printing.render import scoresheet_html

    assert "split 2–2, replayed" in scoresheet_html(game)


# -- no_redeal_requests ----------------------------------------------------------------------
def test_no_redeal_requests_nobody_asks_for_a_kh_redeal_or_a_trex_throw_in():
    hands = [
        parse_cards("KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS AS"),
        parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AH 2D"),
        parse_cards("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD KS"),
        parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
    ]
    masks = [sum(c.bit for c in h) for h in hands]
    assert redeal_requests(masks, 0, [Contract.KING_OF_HEARTS], HouseRules())
    assert redeal_requests(masks, 0, [Contract.KING_OF_HEARTS], NO_REQUESTS) == []
    assert play_choice(masks, (Contract.KING_OF_HEARTS,), HouseRules(), True).status == THROWN_IN
    assert play_choice(masks, (Contract.KING_OF_HEARTS,), NO_REQUESTS, True).status != THROWN_IN
    # The advisor says nothing of the King's own right to a redeal either.
    choices = [(Contract.KING_OF_HEARTS,)]
    assert _own_redeals(masks[0], choices, HouseRules()) == ("kh-redeal",)
    assert _own_redeals(masks[0], choices, NO_REQUESTS) == ()


def test_no_redeal_requests_only_a_misdeal_or_another_reason_is_possible():
    assert Progress(NO_REQUESTS, 0).possible_throw_in_reasons() == ("misdeal", "other")


@pytest.mark.parametrize(
    "reason, words",
    [
        (
            "kh-redeal",
            "Deal 2: nobody may ask for a K♥ redeal: this game plays without redeal requests",
        ),
        (
            "trex-twos",
            "Deal 2: nobody may throw in for the 2s in Trex: this game plays without "
            "redeal requests",
        ),
    ],
)
def test_no_redeal_requests_a_file_with_one_is_refused_in_one_line_naming_the_deal(reason, words):
    doc = split_game(
        [
            {"king": 0, "thrown_in": {"reason": "misdeal", "by": 1}},
            {"king": 0, "thrown_in": {"reason": reason, "by": 1}},
        ],
        {"no_redeal_requests": True},
    )
    with pytest.raises(InvalidResult) as info:
        read_game(doc)
    assert [str(p) for p in info.value.problems] == [words]


def test_no_redeal_requests_simulated_games_hold_no_request():
    for seed in range(20):
        doc = play_game(seed, NO_REQUESTS, "heuristic").doc
        reasons = {d["thrown_in"]["reason"] for d in doc["deals"] if "thrown_in" in d}
        assert not reasons & {"kh-redeal", "trex-twos"}


# -- the advisor's average hands -------------------------------------------------------------
def test_advisor_average_hands_measure_the_new_rules_at_run_time():
    for rules in (KING_CREDIT, SPLIT, NO_REQUESTS):
        assert play_rules(rules) == rules  # each changes how one deal plays or scores


def test_advisor_a_split_of_the_queens_is_a_replay_it_leaves_out():
    statuses = set()
    from scorekeeper.engine.advisor.playout import sample_hands

    for index in range(40):
        hands = sample_hands(None, 29, index)
        statuses.add(play_choice(hands, (Contract.QUEENS,), SPLIT, True).status)
        assert play_choice(hands, (Contract.QUEENS,), PARTNERS, True).status != REPLAYED
    assert REPLAYED in statuses


# -- through the pages ----------------------------------------------------------------------
def test_no_redeal_requests_the_thrown_in_form_hides_the_two_reasons(client, table):
    game_id = table.new_game(preset="custom", doubling="y", no_redeal_requests="y")
    page = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    assert [i["value"] for i in page.select("input[name=reason]")] == ["misdeal", "other"]
    response = client.post(
        f"/games/{game_id}/thrown-in",
        data={**hidden_fields(page), "reason": "kh-redeal", "by": "2", "step": "save"},
    )
    assert response.status_code == 400
    assert "Nobody may ask for a K♥ redeal: this game plays without redeal requests" in soup(
        response
    ).get_text(" ")
    assert query(client.application, "select id from deals") == []


def test_split_queens_replay_the_entry_shows_the_replay_as_a_sweep_does(client, table):
    game_id = table.new_game(
        preset="custom", doubling="y", partnership="y", split_queens_replay="y"
    )
    fields = {f"q_{s}_taker": str(t) for s, t in zip(SUITS, (0, 1, 2, 3))}
    preview = table.post_entry(game_id, "queens", fields)
    assert "Queens: split two and two, replayed" in soup(preview).get_text(" ")
    hidden = hidden_fields(table.open_form(game_id, "queens", 0))
    live = client.post(f"/games/{game_id}/deals/preview.json", data={**hidden, **fields})
    assert "split two and two, replayed" in live.get_json()["note"]
    saved = table.post_entry(game_id, "queens", fields, step="save")
    assert saved.status_code == 303
    [row] = query(client.application, "select score_0 from deals")
    assert row["score_0"] == 0
    assert "split two and two, replayed" in soup(client.get(f"/games/{game_id}")).get_text(" ")
    # Queens is still open: the King may choose it again.
    assert table.open_form(game_id, "queens", 0) is not None


def test_new_rules_through_an_exported_file_and_back(client, table):
    game_id = table.new_game(
        preset="custom",
        doubling="y",
        partnership="y",
        split_queens_replay="y",
        self_capture="king-credit",
        no_redeal_requests="y",
    )
    exported = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    rules = json.loads(exported)["rules"]
    assert rules["split_queens_replay"] and rules["no_redeal_requests"]
    assert rules["self_capture"] == "king-credit"
    other = json.loads(exported)
    other["players"] = ["E", "F", "G", "H"]
    assert upload(client, json.dumps(other)).status_code == 303
