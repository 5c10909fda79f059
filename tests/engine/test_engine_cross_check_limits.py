"""The cross-checks of a combined deal, tested on their limits (RULES.md "Combined deals").

Each check gets a deal played card by card with real hands whose result sits exactly on the
limit: the validator must accept it, and the scorer must agree with the points counted card by
card. The same result moved one step past the limit must be refused with the check's message.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from scorekeeper.engine import HouseRules, Progress, score_deal, validate_entry
from scorekeeper.engine.cards import (
    DIAMONDS_MASK,
    KING_OF_HEARTS,
    QUEENS_MASK,
    parse_card,
    parse_cards,
)
from scorekeeper.engine.contracts import NEGATIVE_CONTRACTS, Contract
from scorekeeper.engine.play import TrickDeal
from scorekeeper.engine.validation import penalty_cards

KH, DI, QU, CO = NEGATIVE_CONTRACTS
DEALER = 0
ALL_FOUR = (KH, DI, QU, CO)


# --- the deals ---------------------------------------------------------------------------------
# Each deal: four 13-card hands (seat 0 deals and leads), the cards whose holders double them,
# and the thirteen tricks, each written in playing order from its leader.

#: Seat 3 takes one trick holding the Q♦ and no other diamond; seat 1 takes one trick without a
#: diamond; seat 0 takes every other diamond.
QD_ALONE: dict[str, Any] = {
    "hands": [
        "2S 4S 5S 6S 7S 8S 9S 10S JS QS KS 3C AH",
        "3S AC 2H 4C 5C 6C 7C 8C 9C 10C JC QC KC",
        "QD AD 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "AS 2C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD KD",
    ],
    "doubles": ("QD", "KH"),
    "tricks": [
        "2S 3S QD AS",  # seat 3 wins: the Q♦ is its only diamond
        "2C 3C AC 3H",  # seat 3 leads, seat 1 wins a trick without a diamond
        "2H 4H 2D AH",  # seat 1 leads, seat 0 wins
        "4S 4C 5H 3D",  # seat 0 leads spades to the end, nobody else has one
        "5S 5C 6H 4D",
        "6S 6C 7H 5D",
        "7S 7C 8H 6D",
        "8S 8C 9H 7D",
        "9S 9C 10H 8D",
        "10S 10C JH 9D",
        "JS JC QH 10D",
        "QS QC KH JD",
        "KS KC AD KD",
    ],
}

#: Seat 3 takes exactly one trick, 5♦ K♥ Q♦ A♦: four penalty cards in a Complex deal, five if
#: the Q♦ were counted both as a diamond and as a queen. Seats 1 and 2 take nothing at all.
KH_QD_IN_ONE_TRICK: dict[str, Any] = {
    "hands": [
        "5D AC 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        "2S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "3S QD AH 2D 3D 4D 6D 7D 8D 9D 10D JD KD",
        "AD 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    ],
    "doubles": ("KH", "QD"),
    "tricks": [
        "5D KH QD AD",  # seat 1 has no diamond and throws the K♥; seat 3 wins
        "QC AC 2H 2D",  # seat 3 leads, seat 0 wins and keeps the lead to the end
        "4S 2S 3S 2C",
        "5S 3H AH 3C",
        "6S 4H 3D 4C",
        "7S 5H 4D 5C",
        "8S 6H 6D 6C",
        "9S 7H 7D 7C",
        "10S 8H 8D 8C",
        "JS 9H 9D 9C",
        "QS 10H 10D 10C",
        "KS JH JD JC",
        "AS QH KD KC",
    ],
}

#: Seat 3 takes exactly one trick, four diamonds 5♦ 7♦ Q♦ A♦; seats 1 and 2 take nothing.
FOUR_DIAMONDS_IN_ONE_TRICK: dict[str, Any] = {
    "hands": [
        "5D AC 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        "2S 7D 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
        "3S QD AH KH 2D 3D 4D 6D 8D 9D 10D JD KD",
        "AD 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    ],
    "doubles": ("QD",),
    "tricks": [
        "5D 7D QD AD",  # everyone follows in diamonds; seat 3 wins
        "QC AC 2H 2D",
        "4S 2S 3S 2C",
        "5S 3H AH 3C",
        "6S 4H KH 4C",
        "7S 5H 3D 5C",
        "8S 6H 4D 6C",
        "9S 7H 6D 7C",
        "10S 8H 8D 8C",
        "JS 9H 9D 9C",
        "QS 10H 10D 10C",
        "KS JH JD JC",
        "AS QH KD KC",
    ],
}


def play_out(spec: dict[str, Any], contracts: tuple[Contract, ...], rules: HouseRules) -> TrickDeal:
    """Deal *spec*'s hands, take the doubling decisions, and play its tricks card by card."""
    deal = TrickDeal([parse_cards(h) for h in spec["hands"]], DEALER, contracts, rules)
    doubles = {parse_card(c) for c in spec["doubles"]}
    while deal.pending_double is not None:
        card = deal.pending_double
        deal.double(card, card in doubles)
    for trick in spec["tricks"]:
        for text in trick.split():
            deal.play(parse_card(text))
    assert deal.is_over
    return deal


# --- contract sets and rules -------------------------------------------------------------------
def rules_for(contracts: tuple[Contract, ...]) -> HouseRules:
    """Complex for the four negative contracts together, Combination for smaller groups."""
    return HouseRules(combining="complex" if contracts == ALL_FOUR else "combination")


def label(contracts: tuple[Contract, ...]) -> str:
    return "+".join(c.value for c in contracts)


def groups_with(*required: Contract) -> list[tuple[Contract, ...]]:
    """Every combined deal (two or more negative contracts) that holds *required*."""
    return [
        group
        for size in range(2, 5)
        for group in combinations(NEGATIVE_CONTRACTS, size)
        if all(c in group for c in required)
    ]


def with_penalty(groups: list[tuple[Contract, ...]]) -> list[tuple[Contract, ...]]:
    """The groups in which some card costs points (not Collections alone)."""
    return [g for g in groups if set(g) & {KH, DI, QU}]


WITH_DI_QU = groups_with(DI, QU)
WITH_CO = with_penalty(groups_with(CO))


def problems(raw: dict[str, Any], contracts: tuple[Contract, ...]) -> list[str]:
    progress = Progress(rules_for(contracts), first_king=DEALER)
    record, found = validate_entry(raw, progress)
    assert (record is None) == bool(found)
    return [str(p) for p in found]


def assert_accepted_and_scored(deal: TrickDeal, contracts: tuple[Contract, ...]) -> None:
    """The validator takes the played result as it is, and scores it as the cards do."""
    rules = rules_for(contracts)
    record, found = validate_entry(deal.result(), Progress(rules, first_king=DEALER))
    assert [str(p) for p in found] == []
    assert record is not None
    assert list(score_deal(record, rules)) == deal.card_points()
    assert sum(score_deal(record, rules)) == sum(
        {KH: -75, DI: -130, QU: -100, CO: -195}[c] for c in contracts
    )


def move_count(result: dict[str, Any], key: str, source: int, target: int) -> None:
    """Move one diamond (or trick) of the result from *source* to *target*."""
    assert result[key][source] > 0
    result[key][source] -= 1
    result[key][target] += 1


def give_card(result: dict[str, Any], kind: str, source: int, target: int) -> None:
    """Move one penalty card of the given *kind* from *source* to *target* in the result."""
    if kind == "a diamond":
        move_count(result, "diamonds", source, target)
    elif kind == "the K♥":
        assert result["king_of_hearts"]["taker"] == source
        result["king_of_hearts"]["taker"] = target
    else:
        suit = {"the Q♠": "spades", "the Q♥": "hearts", "the Q♣": "clubs"}[kind]
        assert result["queens"][suit]["taker"] == source
        result["queens"][suit]["taker"] = target


def kinds_in(contracts: tuple[Contract, ...]) -> list[str]:
    """One penalty card of each contract of the deal that has them."""
    kinds = []
    if KH in contracts:
        kinds.append("the K♥")
    if DI in contracts:
        kinds.append("a diamond")
    if QU in contracts:
        kinds.append("the Q♠")
    return kinds


# --- with Diamonds and Queens: the taker of the Q♦ has taken at least one diamond -------------
@pytest.mark.parametrize("contracts", WITH_DI_QU, ids=label)
def test_combined_deals__qd_taker_took_a_diamond__on_the_limit(contracts):
    deal = play_out(QD_ALONE, contracts, rules_for(contracts))
    result = deal.result()
    assert result["queens"]["diamonds"] == {"taker": 3, "doubled_by": 2}
    assert result["diamonds"] == [12, 0, 0, 1]
    assert deal.taken_mask(3) & DIAMONDS_MASK == parse_card("QD").bit  # the Q♦ and nothing else
    assert_accepted_and_scored(deal, contracts)


@pytest.mark.parametrize("contracts", WITH_DI_QU, ids=label)
def test_combined_deals__qd_taker_took_a_diamond__qd_to_a_player_without_diamond_is_refused(
    contracts,
):
    result = play_out(QD_ALONE, contracts, rules_for(contracts)).result()
    # Seat 1 took a trick but no diamond: only the Q♦ cross-check can object.
    assert result["diamonds"][1] == 0
    if CO in contracts:
        assert result["tricks"][1] == 1
    result["queens"]["diamonds"]["taker"] = 1
    assert problems(result, contracts) == [
        "Deal 1, Diamonds: seat 1 took the Q♦, so they took at least one diamond"
    ]


@pytest.mark.parametrize("contracts", WITH_DI_QU, ids=label)
def test_combined_deals__qd_taker_took_a_diamond__its_only_diamond_moved_away_is_refused(contracts):
    result = play_out(QD_ALONE, contracts, rules_for(contracts)).result()
    move_count(result, "diamonds", 3, 0)
    assert result["diamonds"] == [13, 0, 0, 0]
    assert problems(result, contracts) == [
        "Deal 1, Diamonds: seat 3 took the Q♦, so they took at least one diamond"
    ]


# --- with Collections: a player who took no trick took no diamond, queen or K♥ ----------------
@pytest.mark.parametrize("contracts", WITH_CO, ids=label)
def test_combined_deals__no_trick_no_penalty_card__on_the_limit(contracts):
    deal = play_out(KH_QD_IN_ONE_TRICK, contracts, rules_for(contracts))
    result = deal.result()
    assert result["tricks"] == [12, 0, 0, 1]
    counted = penalty_cards(validate_entry(result, Progress(rules_for(contracts), DEALER))[0])
    assert counted[3] >= 1  # one trick, holding penalty cards of this deal
    assert counted[1] == counted[2] == 0  # no trick, no penalty card
    assert deal.taken_mask(1) == deal.taken_mask(2) == 0
    assert_accepted_and_scored(deal, contracts)


@pytest.mark.parametrize(
    "contracts, kind",
    [(g, k) for g in WITH_CO for k in kinds_in(g)],
    ids=lambda v: label(v) if isinstance(v, tuple) else v,
)
def test_combined_deals__no_trick_no_penalty_card__card_to_a_player_without_trick_is_refused(
    contracts, kind
):
    result = play_out(KH_QD_IN_ONE_TRICK, contracts, rules_for(contracts)).result()
    source = 3 if kind == "the K♥" else 0
    give_card(result, kind, source, 1)
    assert problems(result, contracts) == [
        f"Deal 1, Collections: seat 1 took no trick, so they cannot have taken {kind}"
    ]


# --- with Collections: the distinct penalty cards fit in four cards per trick taken -----------
@pytest.mark.parametrize("contracts", [(DI, CO), (DI, QU, CO), ALL_FOUR], ids=label)
def test_combined_deals__penalty_cards_fit_four_per_trick__four_diamonds_in_one_trick(contracts):
    deal = play_out(FOUR_DIAMONDS_IN_ONE_TRICK, contracts, rules_for(contracts))
    result = deal.result()
    assert result["tricks"][3] == 1 and result["diamonds"][3] == 4
    record = validate_entry(result, Progress(rules_for(contracts), DEALER))[0]
    assert record is not None and penalty_cards(record)[3] == 4  # the Q♦ once, not twice
    assert_accepted_and_scored(deal, contracts)


def test_combined_deals__penalty_cards_fit_four_per_trick__complex_qd_counted_once():
    contracts = ALL_FOUR
    deal = play_out(KH_QD_IN_ONE_TRICK, contracts, rules_for(contracts))
    result = deal.result()
    assert result["tricks"][3] == 1
    assert result["diamonds"][3] == 3
    assert result["queens"]["diamonds"]["taker"] == 3
    assert result["king_of_hearts"] == {"taker": 3, "doubled_by": 1}
    taken = deal.taken_mask(3)
    assert taken & (DIAMONDS_MASK | QUEENS_MASK | KING_OF_HEARTS.bit) == taken  # all penalty
    # Three diamonds, one queen, the K♥: five entries, but only four distinct cards.
    record = validate_entry(result, Progress(rules_for(contracts), DEALER))[0]
    assert record is not None and penalty_cards(record)[3] == 4
    assert_accepted_and_scored(deal, contracts)


PAST_FOUR = [
    (FOUR_DIAMONDS_IN_ONE_TRICK, (DI, CO), "a diamond"),
    (FOUR_DIAMONDS_IN_ONE_TRICK, (DI, QU, CO), "a diamond"),
    (FOUR_DIAMONDS_IN_ONE_TRICK, (DI, QU, CO), "the Q♠"),
    (FOUR_DIAMONDS_IN_ONE_TRICK, ALL_FOUR, "a diamond"),
    (FOUR_DIAMONDS_IN_ONE_TRICK, ALL_FOUR, "the Q♠"),
    (FOUR_DIAMONDS_IN_ONE_TRICK, ALL_FOUR, "the K♥"),
    (KH_QD_IN_ONE_TRICK, ALL_FOUR, "a diamond"),
    (KH_QD_IN_ONE_TRICK, ALL_FOUR, "the Q♠"),
    (KH_QD_IN_ONE_TRICK, ALL_FOUR, "the Q♥"),
]


@pytest.mark.parametrize(
    "spec, contracts, kind",
    PAST_FOUR,
    ids=[
        f"{'4D' if s is FOUR_DIAMONDS_IN_ONE_TRICK else 'KH+QD'}-{label(c)}-{k}"
        for s, c, k in PAST_FOUR
    ],
)
def test_combined_deals__penalty_cards_fit_four_per_trick__one_card_more_is_refused(
    spec, contracts, kind
):
    result = play_out(spec, contracts, rules_for(contracts)).result()
    give_card(result, kind, 0, 3)  # seat 0 took every other penalty card
    assert problems(result, contracts) == [
        "Deal 1, Collections: seat 3 took 5 penalty cards; at four cards a trick that takes "
        "at least 2 tricks, not 1"
    ]
