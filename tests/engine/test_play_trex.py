"""Trex, the layout contract, played card by card (RULES.md "Trex", "Partnership")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import CARDS, Rank, Suit, deal_masks, parse_card, parse_cards
from scorekeeper.engine.errors import IllegalPlay, RuleError
from scorekeeper.engine.play import PASS, CardPlayed, FinishedOut, Passed, TrexDeal, TwosRevealed
from scorekeeper.engine.records import read_deal
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.scoring import score_deal
from handbuilder import fill_hands

BY_SUIT = [[c for c in CARDS if c.suit is s] for s in Suit]  # seat s holds suit s


def full_hands(fixed: dict[int, str]) -> list[list]:
    return fill_hands(fixed)


def play_randomly(deal: TrexDeal, rng: random.Random) -> None:
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_trex__the_dealer_starts(dealer):
    deal = TrexDeal(BY_SUIT, dealer)
    assert deal.current_player == dealer
    assert deal.legal_plays() == [BY_SUIT[dealer][Rank.JACK]]


@pytest.mark.parametrize(
    "plays, legal_for_seat_0",
    [
        ("", "JS"),
        ("JS JH JD JC", "10S QS"),
        ("JS JH JD JC QS QH QD QC", "10S KS"),
        ("JS JH JD JC 10S 10H 10D 10C 9S 9H 9D 9C", "8S QS"),
        ("JS JH JD JC QS QH QD QC KS KH KD KC AS AH AD AC", "10S"),  # the row stops at the ace
    ],
)
def test_trex__legal_cards_are_jacks_or_adjacent(plays, legal_for_seat_0):
    deal = TrexDeal(BY_SUIT, 0)
    for text in plays.split():
        deal.play(parse_card(text))
    assert deal.current_player == 0
    assert deal.legal_plays() == sorted(parse_cards(legal_for_seat_0))


def test_trex__a_card_not_touching_the_row_is_refused():
    deal = TrexDeal(BY_SUIT, 0)
    with pytest.raises(IllegalPlay, match="must be a jack or touch a card of its suit"):
        deal.play(parse_card("10S"))
    with pytest.raises(IllegalPlay, match="does not hold"):
        deal.play(parse_card("JH"))


def test_trex__must_play_if_able_else_pass():
    deal = TrexDeal(full_hands({0: "JS JH JD JC"}), 0)
    assert not deal.can_pass()
    with pytest.raises(IllegalPlay, match="must play one"):
        deal.pass_turn()
    deal.play(parse_card("JD"))
    assert deal.current_player == 1 and deal.legal_plays() == []
    assert deal.legal_actions() == [PASS] and deal.can_pass()
    assert deal.apply(PASS) == Passed(1)
    assert deal.current_player == 2


def test_trex__row_of_a_suit_grows_from_its_jack():
    deal = TrexDeal(BY_SUIT, 0)
    assert deal.row(Suit.SPADES) is None
    for text in "JS JH JD JC 10S".split():
        deal.play(parse_card(text))
    assert deal.row(Suit.SPADES) == (Rank.TEN, Rank.JACK)
    assert deal.row(Suit.HEARTS) == (Rank.JACK, Rank.JACK)


def test_trex__places_score_200_150_100_50():
    deal = TrexDeal(BY_SUIT, 0)  # everyone can always play: seat 0 goes out first
    while not deal.is_over:
        deal.play(deal.legal_plays()[0])
    assert deal.finishing_order == (0, 1, 2, 3)
    assert deal.result() == {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]}
    assert deal.card_points() == [200, 150, 100, 50]
    assert [r.place for r in deal.history if isinstance(r, FinishedOut)] == [0, 1, 2, 3]


def test_trex__reversed_scores():
    deal = TrexDeal(BY_SUIT, 2, HouseRules(reverse_scores=True))
    while not deal.is_over:
        deal.play(deal.legal_plays()[0])
    assert deal.finishing_order == (2, 3, 0, 1)
    assert deal.card_points() == [-100, -50, -200, -150]


def test_trex__played_with_the_whole_pack():
    with pytest.raises(RuleError, match="whole pack"):
        TrexDeal([BY_SUIT[0][:2], BY_SUIT[1][:2], BY_SUIT[2][:2], BY_SUIT[3][:2]], 0)


def test_trex__result_only_when_over():
    with pytest.raises(RuleError, match="not over"):
        TrexDeal(BY_SUIT, 0).result()


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.booleans())
def test_trex__finishing_order_is_a_permutation_and_everyone_out_stops_playing(
    seed, dealer, partners
):
    rng = random.Random(seed)
    rules = HouseRules(partnership=partners)
    deal = TrexDeal(deal_masks(rng), dealer, rules)
    play_randomly(deal, rng)
    order = deal.result()["trex_order"]
    assert sorted(order) == [0, 1, 2, 3]
    out: set[int] = set()
    for record in deal.history:
        if isinstance(record, (CardPlayed, Passed)):
            assert record.seat not in out
        elif isinstance(record, FinishedOut):
            out.add(record.seat)
    played = [r.card for r in deal.history if isinstance(r, CardPlayed)]
    assert len(played) == len(set(played)) == 52 - deal.cards_left(order[-1])
    points = deal.card_points()
    assert sum(points) == 500
    record, problems = read_deal(deal.result())
    assert not problems and list(score_deal(record, rules)) == points


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_trex__legal_plays_follow_the_layout(seed, dealer):
    """Checks the deal's legal cards against the rule stated directly on the cards played."""
    rng = random.Random(seed)
    deal = TrexDeal(deal_masks(rng), dealer)
    played: set = set()
    while not deal.is_over:
        seat = deal.current_player
        expected = []
        for card in deal.hand(seat):
            ranks = [c.rank for c in played if c.suit is card.suit]
            jack_down = bool(ranks)
            touching = jack_down and card.rank in (min(ranks) - 1, max(ranks) + 1)
            if card.rank is Rank.JACK or touching:
                expected.append(card)
        assert deal.legal_plays() == expected
        action = rng.choice(deal.legal_actions())
        if action is not PASS:
            played.add(action)
        deal.apply(action)
    for suit in Suit:
        ranks = sorted(c.rank for c in played if c.suit is suit)
        if ranks:
            assert Rank.JACK in ranks and ranks == list(range(ranks[0], ranks[-1] + 1))


def test_partnership__twos_are_shown_after_everyone_has_had_a_turn():
    hands = full_hands({0: "JS 2S", 1: "JH 2H 2D", 2: "JD", 3: "JC 2C"})
    deal = TrexDeal(hands, 0, HouseRules(partnership=True))
    for _ in range(3):
        deal.play(deal.legal_plays()[0])
    assert not any(isinstance(r, TwosRevealed) for r in deal.history)
    assert deal.revealed(1) == ()
    deal.play(deal.legal_plays()[0])
    shown = [r for r in deal.history if isinstance(r, TwosRevealed)]
    assert shown == [TwosRevealed((parse_cards("2S"), parse_cards("2H 2D"), (), parse_cards("2C")))]
    assert deal.revealed(1) == parse_cards("2H 2D")


def test_partnership__no_twos_shown_in_the_standard_game():
    deal = TrexDeal(BY_SUIT, 0)
    play_randomly(deal, random.Random(1))
    assert not any(isinstance(r, TwosRevealed) for r in deal.history)
