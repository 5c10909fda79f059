"""The bots: random play and the tactics of the source texts (seeds/000 "Common tactics")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.bots import HeuristicBot, RandomBot, make_bot
from scorekeeper.engine.cards import CARDS, deal_masks, mask_of, parse_card, parse_cards
from scorekeeper.engine.contracts import ALL_CONTRACTS, NEGATIVE_CONTRACTS, Contract
from scorekeeper.engine.play import TrexDeal, TrickDeal
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.simulate import deal_options, play_out

KH, DI, QU, CO = NEGATIVE_CONTRACTS
TX = Contract.TREX
RULES = HouseRules()


def hand(text: str) -> int:
    cards = parse_cards(text)
    assert len(cards) == 13
    return mask_of(cards)


def deal_with(hands: list[str], dealer: int, contracts, **rules) -> TrickDeal:
    return TrickDeal([parse_cards(h) for h in hands], dealer, contracts, HouseRules(**rules))


# --- random bot ---------------------------------------------------------------------------------
def test_random_bot__same_seed_same_choices():
    legal = list(CARDS[:7])
    a, b = RandomBot(5), RandomBot(5)
    assert [a.choose_play(None, legal) for _ in range(30)] == [
        b.choose_play(None, legal) for _ in range(30)
    ]


def test_random_bot__every_legal_choice_can_come():
    bot = RandomBot(1)
    legal = list(CARDS[:4])
    assert {bot.choose_play(None, legal) for _ in range(200)} == set(legal)
    options = [(c,) for c in ALL_CONTRACTS]
    assert {bot.choose_deal(0, options, RULES) for _ in range(200)} == set(options)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["random", "heuristic"]))
def test_bots__play_whole_deals_with_legal_cards(seed, name):
    rng = random.Random(seed)
    bot = make_bot(name, rng)
    contracts = rng.choice([(KH,), (DI,), (QU,), (CO,), (KH, DI, QU, CO), (TX,)])
    hands = deal_masks(rng)
    deal = TrexDeal(hands, 0) if contracts == (TX,) else TrickDeal(hands, 1, contracts, RULES)
    play_out(deal, [bot] * 4)  # every card goes through deal.play, which verifies it
    assert deal.is_over


def test_make_bot__unknown_name():
    with pytest.raises(ValueError, match="no bot called 'clever'"):
        make_bot("clever", random.Random(0))


# --- heuristic bot: doubling and choosing ------------------------------------------------------
@pytest.mark.parametrize(
    "cards, card, double",
    [
        ("KH 2H 3H 4H 5H AS KS QS 2D 3D 4D 2C 3C", "KH", True),  # five hearts: protected king
        ("KH AH 3H 2S 3S 4S 5S 6S 7S 8S 9S 2D 3D", "KH", True),  # three high hearts, a short suit
        ("KH 5H 3H 2S 3S 4S 5S 6S 7S 8S 9S 10S 2D", "KH", True),  # three hearts, a singleton
        ("KH 2H 2S 3S 4S 5S 6S 2D 3D 4D 2C 3C 4C", "KH", False),  # two hearts
        ("KH 9H 8H 7H 2S 3S 4S 2D 3D 4D 2C 3C 4C", "KH", False),  # four hearts, no short suit
        ("QS 2S 4S 6S KH 2H 3H 2D 3D 4D 2C 3C 4C", "QS", True),  # queen behind three low cards
        ("QS KS 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C", "QS", False),  # queen with no low cards
        ("QS JS 10S 9S 2H 3H 4H 2D 3D 4D 2C 3C 4C", "QS", False),  # only middling cards below
    ],
)
def test_heuristic__doubles_when_the_card_is_protected(cards, card, double):
    assert HeuristicBot(0).choose_double(hand(cards), parse_card(card)) is double


def test_heuristic__chooses_king_of_hearts_with_a_long_heart_suit():
    cards = hand("KH QH 9H 8H 6H 4H 2H 2S 3S 4S 2D 3D 2C")
    assert HeuristicBot(0).choose_deal(cards, [(DI,), (KH,), (QU,)], RULES) == (KH,)


def test_heuristic__chooses_trex_with_cards_close_to_the_jacks():
    cards = hand("JS QS KS JH QH 10H JD QD 10D JC QC KC 10C")
    options = deal_options(list(ALL_CONTRACTS), RULES)
    assert HeuristicBot(0).choose_deal(cards, options, RULES) == (TX,)


def test_heuristic__avoids_collections_with_high_cards():
    cards = hand("AS KS QS AH KH QH AD KD QD AC KC QC JC")
    choice = HeuristicBot(0).choose_deal(cards, [(CO,), (TX,)], RULES)
    assert choice == (TX,)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(["none", "complex", "combination"]),
    st.sets(st.sampled_from(ALL_CONTRACTS), min_size=1),
)
def test_heuristic__chooses_one_of_the_options(seed, combining, left):
    rules = HouseRules(combining=combining)
    options = deal_options(sorted(left, key=ALL_CONTRACTS.index), rules)
    hand_mask = deal_masks(random.Random(seed))[0]
    assert HeuristicBot(0).choose_deal(hand_mask, options, rules) in options


# --- heuristic bot: playing ---------------------------------------------------------------------
def test_heuristic__discards_the_king_of_hearts_when_void():
    deal = deal_with(["AS 4S", "KH 2C", "2S 5S", "3S 6S"], 0, (KH,), doubling=False)
    deal.play(parse_card("AS"))
    assert HeuristicBot(0).choose_play(deal, deal.legal_plays()) == parse_card("KH")


def test_heuristic__ducks_with_the_highest_card_that_loses():
    deal = deal_with(["AS 2H", "KS 2S", "3H 4H", "5H 6H"], 0, (CO,))
    deal.play(parse_card("AS"))
    assert HeuristicBot(0).choose_play(deal, deal.legal_plays()) == parse_card("KS")


def test_heuristic__drops_a_queen_under_a_higher_card():
    deal = deal_with(["KS 2H", "QS 2S", "3H 4H", "5H 6H"], 0, (QU,), doubling=False)
    deal.play(parse_card("KS"))
    assert HeuristicBot(0).choose_play(deal, deal.legal_plays()) == parse_card("QS")


def test_heuristic__leads_hearts_to_force_out_the_king():
    deal = deal_with(["2H 9S 9D", "KH 3S 3D", "AS 4S 4D", "AD 5S 5D"], 0, (KH,), doubling=False)
    assert HeuristicBot(0).choose_play(deal, deal.legal_plays()) == parse_card("2H")


def test_heuristic__in_trex_opens_the_suit_it_holds():
    hands = [parse_cards("JS 10S 9S 8S JH 2C 3C 4C 5C 6C 7C 8C 9C")]
    others = [c for c in CARDS if c not in hands[0]]
    hands += [others[0:13], others[13:26], others[26:39]]
    deal = TrexDeal(hands, 0)
    assert HeuristicBot(0).choose_play(deal, deal.legal_plays()) == parse_card("JS")


def test_heuristic__beats_random_players():
    from scorekeeper.engine.records import read_deal
    from scorekeeper.engine.scoring import score_deal
    from scorekeeper.engine.simulate import simulate_game

    totals = [0, 0, 0, 0]
    for seed in range(24):
        game = simulate_game(seed, RULES, ["heuristic", "random", "heuristic", "random"])
        for raw in game["deals"]:
            for seat, points in enumerate(score_deal(read_deal(raw)[0], RULES)):
                totals[seat] += points
    assert totals[0] + totals[2] > totals[1] + totals[3] + 24 * 200
