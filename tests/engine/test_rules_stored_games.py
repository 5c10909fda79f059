"""Games stored before the rule book's later checks: read leniently, kept as recorded, and
what no longer passes listed deal by deal (engine/gamefile.py "Strict and lenient reading")."""

from __future__ import annotations

import pytest

from gamebuilder import complex_game, standard_game
from scorekeeper.engine import (
    LATER_CHECKS,
    InvalidResult,
    no_longer_passes_text,
    read_document,
    read_game,
)


def old_game() -> dict:
    """Stored before RULES.md said that a redeal request follows its announcement: a K♥ redeal
    asked after King of Hearts was played (deal 3), and a Trex throw-in after Trex (deal 5)."""
    doc = standard_game()
    doc["deals"].insert(2, {"king": 0, "thrown_in": {"reason": "kh-redeal", "by": 1}})
    doc["deals"].insert(4, {"king": 0, "thrown_in": {"reason": "trex-twos", "by": 3}})
    return doc


def test_redeals_an_old_stored_game_is_refused_when_strict():
    with pytest.raises(InvalidResult) as info:
        read_game(old_game())
    # The order of the game is checked only while every deal before is sound.
    assert [(p.code, p.deal) for p in info.value.problems] == [("kh_redeal_closed", 3)]


def test_redeals_an_old_stored_game_opens_leniently_with_what_no_longer_passes():
    game = read_game(old_game(), strict=False)
    assert len(game.deals) == 22 and game.score().is_over
    assert game.score().totals == read_game(standard_game()).score().totals
    assert [no_longer_passes_text(p) for p in game.no_longer_passes] == [
        "Deal 3 no longer passes: Aya cannot announce King of Hearts now, so nobody can ask "
        "for a K♥ redeal",
        "Deal 5 no longer passes: Aya cannot announce Trex now, so nobody can throw in for the 2s",
    ]
    assert [p.field for p in game.no_longer_passes] == ["thrown_in.reason"] * 2


def test_redeals_a_sound_game_read_leniently_has_nothing_that_no_longer_passes():
    assert read_game(standard_game(), strict=False).no_longer_passes == ()
    assert read_game(standard_game()).no_longer_passes == ()


def test_combined_deals_an_old_trickless_leader_is_kept_as_scored_when_stored():
    doc = complex_game(rules={"self_capture": "leader-credit"})
    # Deal 2, Aya's Complex deal: Bilal doubled the K♥ and took it back; Aya (the King, who
    # took no trick) is named as having led to it. Name Carla instead, then Aya again.
    doc["deals"][1]["king_of_hearts"] = {"taker": 1, "doubled_by": 1, "led_by": 0}
    assert read_game(doc).score().deals[1][0] == 75  # the King may lead without a trick
    doc["deals"][1]["tricks"] = [3, 6, 0, 4]
    doc["deals"][1]["diamonds"] = [3, 6, 0, 4]
    doc["deals"][1]["queens"]["hearts"] = {"taker": 1}
    doc["deals"][1]["king_of_hearts"]["led_by"] = 2
    with pytest.raises(InvalidResult):
        read_game(doc)
    game = read_game(doc, strict=False)
    assert game.score().deals[1][2] == 75  # scored as recorded
    assert [no_longer_passes_text(p) for p in game.no_longer_passes] == [
        "Deal 2 no longer passes: Carla took no trick and is not the King, so they cannot have "
        "led to the trick with the K♥"
    ]


def test_redeals_lenient_reading_still_refuses_every_other_problem():
    doc = old_game()
    doc["deals"][3]["diamonds"] = [4, 3, 2, 3]  # deal 4: 12 diamonds
    with pytest.raises(InvalidResult) as info:
        read_game(doc, strict=False)
    assert [(p.code, p.deal) for p in info.value.problems] == [("counts_sum", 4)]


def test_redeals_lenient_reading_goes_on_checking_the_order_after_what_no_longer_passes():
    doc = old_game()
    doc["deals"][8]["king"] = 3  # deal 9, in Bilal's kingdom
    with pytest.raises(InvalidResult) as info:
        read_game(doc, strict=False)
    assert [str(p) for p in info.value.problems] == [
        "Deal 9: this deal belongs to Bilal's kingdom, not Dana's"
    ]


def test_redeals_lenient_reading_of_several_games_names_each_game():
    doc = {"format": "trex-games/1", "games": [standard_game(), old_game()]}
    games = read_document(doc, strict=False)
    assert games[0].no_longer_passes == ()
    assert no_longer_passes_text(games[1].no_longer_passes[0]).startswith(
        "Game 2: deal 3 no longer passes: "
    )
    with pytest.raises(InvalidResult):
        read_document(doc)


def test_later_checks_are_the_checks_the_rule_book_added():
    assert LATER_CHECKS == {"kh_redeal_closed", "trex_twos_closed", "leader_no_trick"}
