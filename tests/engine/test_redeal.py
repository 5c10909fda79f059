"""Redeals read from the hands and sweeps read from a result (RULES.md "King of Hearts",
"Trex", "Sweeps", "Redeals in general")."""

from __future__ import annotations

import pytest

from scorekeeper.engine.cards import mask_of, parse_cards
from scorekeeper.engine.contracts import Contract
from scorekeeper.engine.play import (
    KH_REDEAL,
    TREX_TWOS,
    is_sweep,
    kh_redeal_allowed,
    kh_redeal_seat,
    redeal_requests,
    trex_throw_in_allowed,
    trex_throw_in_seats,
)
from scorekeeper.engine.rules import HouseRules
from handbuilder import fill_hands

STANDARD = HouseRules()
DOUBLETON = HouseRules(kh_redeal_any_doubleton=True)


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def four_hands(fixed: dict[int, str]) -> list[int]:
    """Thirteen cards each: the *fixed* cards where given, the rest of the pack in order."""
    return [mask_of(h) for h in fill_hands(fixed)]


@pytest.mark.parametrize(
    "cards, standard, any_doubleton",
    [
        ("KH 2S 3S", True, True),  # the K♥ alone
        ("KH AH 2S", True, True),  # K♥ A♥ and no other heart
        ("KH 7H 2S", False, True),  # K♥ with another heart: only with the variant
        ("KH AH 7H", False, False),  # three hearts
        ("KH QH 9H 2H 2S", False, False),
        ("AH 2S 3S", True, True),  # the A♥ alone (seed 000)
        ("AH 7H 2S", False, False),  # the A♥ with another heart, but not the K♥
        ("2S 3S 4S", False, False),
    ],
)
def test_king_of_hearts__redeal_request(cards, standard, any_doubleton):
    assert kh_redeal_allowed(hand(cards), STANDARD) is standard
    assert kh_redeal_allowed(hand(cards), DOUBLETON) is any_doubleton


def test_king_of_hearts__the_holder_asks():
    hands = four_hands({2: "KH AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"})
    assert kh_redeal_seat(hands, STANDARD) == 2
    assert redeal_requests(hands, 0, (Contract.KING_OF_HEARTS,), STANDARD) == [(2, KH_REDEAL)]
    assert redeal_requests(hands, 0, (Contract.KING_OF_HEARTS, Contract.DIAMONDS), STANDARD) == [
        (2, KH_REDEAL)
    ]
    assert redeal_requests(hands, 0, (Contract.QUEENS,), STANDARD) == []


@pytest.mark.parametrize(
    "cards, allowed",
    [
        ("2S 2H 2D 2C", True),  # all four 2s
        ("2S 2H 2D 3C", True),  # three 2s and the 3 of the fourth suit
        ("2S 2H 2C 3D", True),
        ("2S 2H 2D 3S", False),  # a 3, but not of the suit whose 2 is missing
        ("2S 2H 3D 3C", False),
        ("2S 2H 2D", False),
    ],
)
def test_trex__throw_in(cards, allowed):
    assert trex_throw_in_allowed(hand(cards)) is allowed


def test_trex__throw_in_asked_only_when_trex_is_chosen():
    hands = four_hands({3: "2S 2H 2D 3C"})
    assert trex_throw_in_seats(hands, 0) == [3]
    assert redeal_requests(hands, 1, (Contract.TREX,), STANDARD) == [(3, TREX_TWOS)]
    assert redeal_requests(hands, 1, (Contract.DIAMONDS,), STANDARD) == []


SWEEPS = HouseRules(sweep_replay=10)
QUEENS_TO = {"spades": {"taker": 1}, "hearts": {"taker": 1}, "diamonds": {"taker": 1}}


FIELD_CONTRACT = {
    "diamonds": "diamonds",
    "queens": "queens",
    "tricks": "collections",
    "trex_order": "trex",
}


def as_deal(result: dict) -> dict:
    """The result as the table enters it: with its King and the contracts it names."""
    if "thrown_in" in result:
        return {"king": 0, **result}
    return {"king": 0, "contracts": [FIELD_CONTRACT[k] for k in result], **result}


@pytest.mark.parametrize(
    "result, swept",
    [
        ({"diamonds": [13, 0, 0, 0]}, True),
        ({"diamonds": [12, 1, 0, 0]}, False),
        ({"queens": {**QUEENS_TO, "clubs": {"taker": 1}}}, True),
        ({"queens": {**QUEENS_TO, "clubs": {"taker": 1, "doubled_by": 1}}}, True),
        ({"queens": {**QUEENS_TO, "clubs": {"taker": 2}}}, False),
        ({"tricks": [10, 3, 0, 0]}, True),
        ({"tricks": [9, 4, 0, 0]}, False),
        ({"tricks": [0, 0, 13, 0], "diamonds": [0, 0, 13, 0]}, True),
        ({"trex_order": [0, 1, 2, 3]}, False),
        ({"thrown_in": {"reason": "kh-redeal", "by": 0}}, False),
    ],
)
def test_sweeps__one_player_takes_everything(result, swept):
    result = as_deal(result)
    assert is_sweep(result, SWEEPS) is swept
    assert is_sweep(result, STANDARD) is False  # off by default


@pytest.mark.parametrize(
    "n, tricks, swept",
    [(13, [12, 1, 0, 0], False), (13, [13, 0, 0, 0], True), (7, [7, 6, 0, 0], True)],
)
def test_sweeps__collections_threshold_is_a_setting(n, tricks, swept):
    assert is_sweep(as_deal({"tricks": tricks}), HouseRules(sweep_replay=n)) is swept
