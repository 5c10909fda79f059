"""Cards, seats, dealing (RULES.md "Table, seats and direction")."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import (
    CARDS,
    FULL_MASK,
    KING_OF_HEARTS,
    QUEENS,
    SUIT_MASKS,
    Card,
    Rank,
    Suit,
    card_at,
    cards_of,
    deal_hands,
    deal_masks,
    format_cards,
    full_deck,
    mask_of,
    nth_index,
    parse_card,
    parse_cards,
    suit_count,
    suit_ranks,
)
from scorekeeper.engine.seats import Seat, seats_from

SEEDS = st.integers(min_value=0, max_value=2**32)


def test_table__standard_pack_of_52_distinct_cards():
    assert len(CARDS) == 52 == len(set(CARDS))
    assert full_deck() == list(CARDS)
    assert [c.index for c in CARDS] == list(range(52))


def test_table__cards_are_interned():
    card = Card.of(Suit.HEARTS, Rank.KING)
    assert card is KING_OF_HEARTS is parse_card("KH") is card_at(card.index)
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card and copy.copy(card) is card


def test_table__rank_order_ace_high_two_low():
    order = "A K Q J 10 9 8 7 6 5 4 3 2".split()
    ranks = [parse_card(label + "S").rank for label in order]
    assert ranks == sorted(ranks, reverse=True)
    assert ranks[0] is Rank.ACE and ranks[-1] is Rank.TWO


@pytest.mark.parametrize(
    "text, expected",
    [
        ("KH QS 10D 7H", "KH QS 10D 7H"),
        ("K♥ Q♠ 10♦ 7♥ 2♣", "KH QS 10D 7H 2C"),
        ("kh, qs,td", "KH QS 10D"),
        ("A♣ J♦️", "AC JD"),
        ("", ""),
    ],
)
def test_cards__parse_and_format(text, expected):
    assert format_cards(parse_cards(text)) == expected


def test_cards__format_with_symbols():
    assert format_cards(parse_cards("KH 10D"), symbols=True) == "K♥ 10♦"
    assert KING_OF_HEARTS.pretty == "K♥" and str(KING_OF_HEARTS) == "KH"


@pytest.mark.parametrize("text", ["1H", "KX", "10", "H", "11S", "QQ"])
def test_cards__parse_refuses_what_is_not_a_card(text):
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(text)


def test_cards__parse_refuses_a_card_twice():
    with pytest.raises(ValueError, match="written twice"):
        parse_cards("KH QS KH")


@given(st.lists(st.sampled_from(CARDS), unique=True))
def test_cards__text_round_trip(cards):
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(format_cards(cards, symbols=True)) == tuple(cards)


@given(st.integers(min_value=0, max_value=FULL_MASK))
def test_cards__mask_round_trip(mask):
    cards = cards_of(mask)
    assert mask_of(cards) == mask
    assert list(cards) == sorted(cards)
    for n, card in enumerate(cards):
        assert nth_index(mask, n) == card.index
    for suit in Suit:
        assert suit_count(mask, suit) == sum(1 for c in cards if c.suit is suit)
        assert suit_ranks(mask, suit) << (13 * suit) == mask & SUIT_MASKS[suit]


def test_cards__queens_in_file_format_suit_order():
    assert [q.suit.file_name for q in QUEENS] == ["spades", "hearts", "diamonds", "clubs"]


@settings(max_examples=50)
@given(SEEDS)
def test_deal__thirteen_cards_each_from_one_pack(seed):
    hands = deal_hands(random.Random(seed))
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    assert sorted(c for h in hands for c in h) == list(CARDS)
    assert [mask_of(h) for h in hands] == deal_masks(random.Random(seed))


def test_deal__same_seed_same_deal_other_seed_other_deal():
    assert deal_masks(random.Random(7)) == deal_masks(random.Random(7))
    assert deal_masks(random.Random(7)) != deal_masks(random.Random(8))


@pytest.mark.parametrize("seat, after, partner", [(0, 1, 2), (1, 2, 3), (2, 3, 0), (3, 0, 1)])
def test_seats__play_goes_to_the_right_partners_sit_opposite(seat, after, partner):
    s = Seat(seat)
    assert s.next() == after and s.partner == partner
    assert s.next().previous() is s
    assert s.iter_from() == seats_from(seat) == tuple(Seat((seat + k) % 4) for k in range(4))
    assert s.team == seat % 2


def test_seats__seat_is_an_int():
    assert Seat(2) == 2 and [0, 1, 2, 3][Seat.THREE] == 3
    assert Seat.ONE.next(3) is Seat.ZERO
