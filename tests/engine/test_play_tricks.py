"""Trick deals played card by card (RULES.md "The five contracts", "King of Hearts", "Queens",
"Penalty-card discard", "Combined deals")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import CARDS, parse_card, parse_cards
from scorekeeper.engine.contracts import NEGATIVE_CONTRACTS, Contract
from scorekeeper.engine.errors import IllegalPlay, RuleError
from scorekeeper.engine.play import CardPlayed, DoubleChoice, DoubleDecision, TrickDeal, TrickWon
from scorekeeper.engine.records import read_deal
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.scoring import contract_total, score_deal
from scorekeeper.engine.validation import check_deal
from handbuilder import fill_hands

KH, DI, QU, CO = NEGATIVE_CONTRACTS


def deal_of(hands: list[str], dealer: int = 0, contracts=(DI,), **rules) -> TrickDeal:
    return TrickDeal([parse_cards(h) for h in hands], dealer, contracts, HouseRules(**rules))


def full_hands(fixed: dict[int, str]) -> list[tuple]:
    """Thirteen cards each: the *fixed* cards where given, the rest of the pack in order."""
    return [tuple(h) for h in fill_hands(fixed)]


def play(deal: TrickDeal, cards: str) -> None:
    for text in cards.split():
        deal.play(parse_card(text))


# --- leading, following, winning --------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_trick_contracts__dealer_leads_to_the_first_trick(dealer):
    deal = deal_of(["2S", "3S", "4S", "5S"], dealer=dealer)
    assert deal.current_player == dealer and deal.leader == dealer
    other = parse_card(["2S", "3S", "4S", "5S"][(dealer + 1) % 4])
    with pytest.raises(IllegalPlay, match="does not hold"):
        deal.play(other)


def test_trick_contracts__must_follow_suit():
    deal = deal_of(["AS 2C", "KS 3H", "QS 4H", "JS 5H"])
    play(deal, "AS")
    assert deal.legal_plays() == [parse_card("KS")]
    assert not deal.can_play(parse_card("3H"))
    with pytest.raises(IllegalPlay, match="must follow suit and play a spade"):
        deal.play(parse_card("3H"))


def test_trick_contracts__a_player_without_the_suit_may_play_anything():
    deal = deal_of(["AS 2C", "3H 4D", "QS 4H", "JS 5H"])
    play(deal, "AS")
    assert deal.legal_plays() == list(parse_cards("3H 4D"))


@pytest.mark.parametrize(
    "cards, winner",
    [
        ("5S 9S 2S KS", 3),
        ("5S AH AD AC", 0),  # no trumps: other suits never win
        ("10H JH 3H QH", 3),
        ("2C 3C AS 4C", 3),
        ("KD AD QD 2D", 1),
    ],
)
def test_trick_contracts__highest_card_of_the_suit_led_wins(cards, winner):
    deal = deal_of(cards.split())
    play(deal, cards)
    record = deal.history[-1]
    assert isinstance(record, TrickWon)
    assert record.winner == winner and record.leader == 0
    assert record.cards == parse_cards(cards)
    assert deal.tricks_taken(winner) == 1 and deal.is_over


def test_trick_contracts__the_winner_leads_next():
    deal = deal_of(["2S 3C", "AS 4C", "3S 5C", "4S 6C"], dealer=0)
    play(deal, "2S AS 3S 4S")
    assert deal.current_player == 1 and deal.leader == 1 and deal.trick_number == 1
    play(deal, "4C 5C 6C 3C")
    assert deal.is_over and deal.tricks_taken(3) == 1 and deal.tricks_taken(1) == 1


def test_trick_contracts__play_returns_the_record_added_to_the_history():
    deal = deal_of(["2S", "3S", "4S", "5S"])
    record = deal.play(parse_card("2S"))
    assert record == CardPlayed(0, parse_card("2S")) and deal.history == (record,)
    assert isinstance(deal.history, tuple)


def test_trick_contracts__nothing_is_played_after_the_end():
    deal = deal_of(["2S", "3S", "4S", "5S"])
    play(deal, "2S 3S 4S 5S")
    assert deal.is_over and deal.current_player is None and deal.legal_plays() == []
    with pytest.raises(IllegalPlay, match="over"):
        deal.play(parse_card("2S"))


def test_trick_contracts__result_only_when_over():
    deal = deal_of(["2S", "3S", "4S", "5S"])
    with pytest.raises(RuleError, match="not over"):
        deal.result()


@pytest.mark.parametrize(
    "hands, message",
    [
        (["2S", "2S", "4S", "5S"], "dealt to two players"),
        (["2S 3S", "4S", "5S", "6S"], "same number of cards"),
        (["2S", "3S", "4S"], "four hands"),
    ],
)
def test_trick_contracts__hands_must_make_a_deal(hands, message):
    with pytest.raises(RuleError, match=message):
        deal_of(hands)


@pytest.mark.parametrize(
    "contracts, message", [((Contract.TREX,), "Trex"), ((DI, DI), "twice"), ((), "at least one")]
)
def test_trick_contracts__contracts_of_a_trick_deal(contracts, message):
    with pytest.raises(RuleError, match=message):
        deal_of(["2S", "3S", "4S", "5S"], contracts=contracts)


# --- King of Hearts -----------------------------------------------------------------------------
def test_king_of_hearts__the_deal_stops_when_the_king_is_taken():
    hands = ["AH 2C", "KH 3C", "2H 4C", "3H 5C"]
    deal = deal_of(hands, contracts=(KH,), doubling=False)
    play(deal, "AH KH 2H 3H")
    assert deal.is_over and deal.result()["king_of_hearts"] == {"taker": 0}
    longer = TrickDeal(
        [parse_cards(h) for h in hands], 0, (KH,), HouseRules(doubling=False), stop_early=False
    )
    play(longer, "AH KH 2H 3H")
    assert not longer.is_over


def test_king_of_hearts__a_combined_deal_does_not_stop_at_the_king():
    deal = deal_of(["AH 2C", "KH 3C", "2H 4C", "3H 5C"], contracts=(KH, CO), doubling=False)
    play(deal, "AH KH 2H 3H")
    assert not deal.is_over


def test_no_heart_lead__a_heart_is_led_only_from_a_hand_of_hearts():
    deal = deal_of(
        ["2H 3S", "4H 5S", "6H 7S", "8H 9S"], contracts=(KH,), no_heart_lead=True, doubling=False
    )
    with pytest.raises(IllegalPlay, match="heart may not be led"):
        deal.play(parse_card("2H"))
    assert deal.legal_plays() == [parse_card("3S")]
    play(deal, "3S 5S 7S 9S")
    assert deal.legal_plays() == [parse_card("8H")]  # seat 3 now holds only hearts


def test_no_heart_lead__applies_only_to_king_of_hearts():
    deal = deal_of(["2H 3S", "4H 5S", "6H 7S", "8H 9S"], contracts=(DI,), no_heart_lead=True)
    assert deal.can_play(parse_card("2H"))


# --- penalty-card discard -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "contracts, void_hand, forced",
    [
        ((KH,), "KH 2C 3D", "KH"),
        ((DI,), "3D 2C 4H", "3D"),
        ((QU,), "QC 2C 4H", "QC"),
        ((CO,), "QC 2C 4H", "2C 4H QC"),  # Collections has no penalty card
        ((KH, QU), "KH QC 2C", "QC KH"),
        ((DI, QU), "QD 3D 2C", "3D QD"),
    ],
)
def test_must_discard_penalty__a_void_player_discards_a_penalty_card(contracts, void_hand, forced):
    hands = ["AS 5S 6S", void_hand, "7S 8S 9S", "10S JS QS"]
    deal = deal_of(hands, contracts=contracts, must_discard_penalty=True, doubling=False)
    play(deal, "AS")
    assert deal.legal_plays() == sorted(parse_cards(forced))
    free = deal_of(hands, contracts=contracts, doubling=False)
    play(free, "AS")
    assert free.legal_plays() == sorted(parse_cards(void_hand))


def test_must_discard_penalty__the_reason_is_given():
    deal = deal_of(["AS 5S", "3D 2C", "7S 8S", "10S JS"], must_discard_penalty=True)
    play(deal, "AS")
    with pytest.raises(IllegalPlay, match="must discard a penalty card \\(a diamond\\)"):
        deal.play(parse_card("2C"))


# --- doubling -----------------------------------------------------------------------------------
def test_doubling__holders_decide_in_turn_from_the_dealer_card_by_card():
    hands = full_hands({0: "QS KH", 2: "QH", 3: "QD QC"})
    deal = TrickDeal(hands, 2, (KH, QU), HouseRules())
    order = []
    while deal.phase == "doubling":
        card = deal.pending_double
        assert deal.legal_actions() == [DoubleChoice(card, True), DoubleChoice(card, False)]
        order.append((int(deal.current_player), str(card)))
        deal.apply(DoubleChoice(card, card.rank == 10))
    assert order == [(2, "QH"), (3, "QD"), (3, "QC"), (0, "QS"), (0, "KH")]
    assert deal.current_player == 2 and deal.phase == "play"
    assert {str(c): s for c, s in deal.doubled.items()} == {"QH": 2, "QD": 3, "QC": 3, "QS": 0}
    assert [r.doubled for r in deal.history if isinstance(r, DoubleDecision)] == [
        True,
        True,
        True,
        True,
        False,
    ]


def test_doubling__before_the_first_lead_only():
    deal = TrickDeal(full_hands({0: "QS", 1: "KH"}), 0, (KH, QU), HouseRules())
    with pytest.raises(IllegalPlay, match="must say whether to double the Q♠"):
        deal.play(deal.hand(0)[0])
    with pytest.raises(IllegalPlay, match="Seat 0's turn to say whether to double the Q♠"):
        deal.double(parse_card("KH"))
    deal.double(parse_card("QS"), False)
    with pytest.raises(IllegalPlay, match="already been decided"):
        deal.double(parse_card("QS"))
    while deal.phase == "doubling":
        deal.double(deal.pending_double, False)
    deal.play(deal.legal_plays()[0])
    with pytest.raises(IllegalPlay, match="before the first lead"):
        deal.double(parse_card("KH"))


@pytest.mark.parametrize(
    "contracts, rules, message",
    [
        ((KH,), {"doubling": False}, "Doubling is off"),
        ((DI,), {}, "cannot be doubled in this deal"),
        ((CO,), {}, "cannot be doubled in this deal"),
    ],
)
def test_doubling__only_the_king_of_hearts_and_queens_when_doubling_is_on(
    contracts, rules, message
):
    deal = TrickDeal(full_hands({0: "KH QS"}), 0, contracts, HouseRules(**rules))
    assert deal.phase == "play" and deal.pending_double is None
    for card in parse_cards("KH QS"):
        assert not deal.can_double(card)
    with pytest.raises(IllegalPlay, match=message):
        deal.double(parse_card("KH"))


# One card each: the K♥ falls in the first trick. Columns: hands, dealer, doubled, self_capture,
# expected result, expected points.
KING_CASES = [
    pytest.param(
        ["AH", "KH", "2H", "3H"],
        0,
        True,
        "single",
        {"taker": 0, "doubled_by": 1},
        [-150, 75, 0, 0],
        id="another-takes-doubled",
    ),
    pytest.param(
        ["AH", "KH", "2H", "3H"], 0, False, "single", {"taker": 0}, [-75, 0, 0, 0], id="not-doubled"
    ),
    pytest.param(
        ["2H", "KH", "3H", "4H"],
        0,
        True,
        "single",
        {"taker": 1, "doubled_by": 1},
        [0, -75, 0, 0],
        id="holder-takes-single",
    ),
    pytest.param(
        ["2H", "KH", "3H", "4H"],
        0,
        True,
        "leader-credit",
        {"taker": 1, "doubled_by": 1, "led_by": 0},
        [75, -150, 0, 0],
        id="holder-takes-leader-credit",
    ),
    pytest.param(
        ["2H", "KH", "3H", "4H"],
        1,
        True,
        "leader-credit",
        {"taker": 1, "doubled_by": 1, "led_by": 1},
        [0, -75, 0, 0],
        id="holder-leads-and-takes",
    ),
    pytest.param(
        ["AH", "KH", "2H", "3H"],
        0,
        True,
        "leader-credit",
        {"taker": 0, "doubled_by": 1},
        [-150, 75, 0, 0],
        id="leader-credit-other-takes",
    ),
]


@pytest.mark.parametrize("hands, dealer, doubled, self_capture, result, points", KING_CASES)
def test_king_of_hearts__doubling_and_self_capture(
    hands, dealer, doubled, self_capture, result, points
):
    deal = deal_of(hands, dealer, (KH,), self_capture=self_capture)
    deal.double(parse_card("KH"), doubled)
    while not deal.is_over:
        deal.play(deal.legal_plays()[0])
    assert deal.result() == {
        "king": dealer,
        "contracts": ["king_of_hearts"],
        "king_of_hearts": result,
    }
    assert deal.card_points() == points
    reversed_deal = deal_of(hands, dealer, (KH,), self_capture=self_capture, reverse_scores=True)
    reversed_deal.double(parse_card("KH"), doubled)
    while not reversed_deal.is_over:
        reversed_deal.play(reversed_deal.legal_plays()[0])
    assert reversed_deal.card_points() == [-p for p in points]


QUEEN_HANDS = ["2S 2H 2D 2C", "QS QH QD QC", "3S 3H 3D 3C", "4S 4H 4D 4C"]


@pytest.mark.parametrize(
    "self_capture, points",
    [
        ("single", [0, -100, 0, 0]),
        ("leader-credit", [25, -125, 0, 0]),  # the Q♠ trick was led by seat 0
    ],
)
def test_queens__holder_takes_own_doubled_queen(self_capture, points):
    deal = deal_of(QUEEN_HANDS, 0, (QU,), self_capture=self_capture)
    for card in parse_cards("QS QH QD QC"):
        deal.double(card, card.suit.letter == "S")
    play(deal, "2S QS 3S 4S QH 3H 4H 2H QD 3D 4D 2D QC 3C 4C 2C")
    queens = deal.result()["queens"]
    assert queens["hearts"] == {"taker": 1}
    expected = {"taker": 1, "doubled_by": 1}
    if self_capture == "leader-credit":
        expected["led_by"] = 0
    assert queens["spades"] == expected
    assert deal.card_points() == points


def test_queens__another_player_takes_a_doubled_queen():
    deal = deal_of(["QS 2H", "AS 3H", "2S 4H", "3S 5H"], 0, (QU,))
    deal.double(parse_card("QS"))
    play(deal, "QS AS 2S 3S 3H 4H 5H 2H")
    assert deal.card_points() == [25, -50, 0, 0]


def test_combined__the_queen_of_diamonds_counts_as_a_diamond_and_a_queen():
    hands = ["QD 2S 2H 2C", "2D QS QH QC", "3D 3S 3H 3C", "4D 4S 4H 4C"]
    deal = deal_of(hands, 0, (DI, QU), doubling=False)
    play(deal, "QD 2D 3D 4D 2S QS 3S 4S QH 3H 4H 2H QC 3C 4C 2C")
    assert deal.card_points() == [-40 - 25, -75, 0, 0]
    result = deal.result()
    assert result["diamonds"] == [4, 0, 0, 0] and result["queens"]["diamonds"] == {"taker": 0}


# --- properties over random deals ---------------------------------------------------------------
RULE_CHOICES = st.fixed_dictionaries(
    {
        "doubling": st.booleans(),
        "self_capture": st.sampled_from(["single", "leader-credit"]),
        "swap_diamonds_collections": st.booleans(),
        "no_heart_lead": st.booleans(),
        "must_discard_penalty": st.booleans(),
        "reverse_scores": st.booleans(),
        "sweep_replay": st.sampled_from([None, 7, 10, 13]),
    }
)
CONTRACT_GROUPS = st.sets(st.sampled_from(NEGATIVE_CONTRACTS), min_size=1).map(tuple)


def random_trick_deal(seed: int, contracts, rules: HouseRules) -> TrickDeal:
    from scorekeeper.engine.cards import deal_masks

    rng = random.Random(seed)
    deal = TrickDeal(deal_masks(rng), rng.randrange(4), contracts, rules, stop_early=False)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), CONTRACT_GROUPS, RULE_CHOICES)
def test_trick_contracts__every_card_and_trick_is_taken_and_points_agree_with_scorer(
    seed, contracts, rule_values
):
    rules = HouseRules(**rule_values)
    deal = random_trick_deal(seed, contracts, rules)
    tricks = [r for r in deal.history if isinstance(r, TrickWon)]
    assert len(tricks) == 13 == sum(deal.tricks_taken(s) for s in range(4))
    assert sorted(c for t in tricks for c in t.cards) == list(CARDS)
    assert sorted(c for s in range(4) for c in deal.taken(s)) == list(CARDS)
    result = deal.result()
    record, problems = read_deal(result)
    assert not problems and not check_deal(record, rules)
    points = deal.card_points()
    assert points == list(score_deal(record, rules))
    if any(points):
        assert sum(points) == sum(contract_total(c, rules) for c in contracts)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_king_of_hearts__stops_early_exactly_when_the_king_is_taken(seed):
    from scorekeeper.engine.cards import KING_OF_HEARTS, deal_masks

    rng = random.Random(seed)
    deal = TrickDeal(deal_masks(rng), 0, (KH,), HouseRules())
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    tricks = [r for r in deal.history if isinstance(r, TrickWon)]
    assert KING_OF_HEARTS in tricks[-1].cards
    assert all(KING_OF_HEARTS not in t.cards for t in tricks[:-1])
    assert sum(deal.card_points()) == -75


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_doubling__never_after_the_first_lead(seed):
    from scorekeeper.engine.cards import deal_masks

    rng = random.Random(seed)
    deal = TrickDeal(deal_masks(rng), rng.randrange(4), (KH, QU), HouseRules())
    while deal.phase == "doubling":
        deal.apply(rng.choice(deal.legal_actions()))
    decisions = len(deal.history)
    assert decisions == 5  # the K♥ and four queens, one decision each
    deal.play(rng.choice(deal.legal_plays()))
    while not deal.is_over:
        assert not any(deal.can_double(c) for c in CARDS)
        assert all(not isinstance(a, DoubleChoice) for a in deal.legal_actions())
        deal.play(rng.choice(deal.legal_plays()))
    assert sum(isinstance(r, DoubleDecision) for r in deal.history) == decisions


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), CONTRACT_GROUPS, RULE_CHOICES)
def test_trick_contracts__verify_play_agrees_with_legal_plays(seed, contracts, rule_values):
    from scorekeeper.engine.cards import deal_masks

    rng = random.Random(seed)
    deal = TrickDeal(deal_masks(rng), rng.randrange(4), contracts, HouseRules(**rule_values))
    while deal.phase == "doubling":
        deal.apply(rng.choice(deal.legal_actions()))
    for _ in range(rng.randrange(40)):
        if deal.is_over:
            break
        deal.play(rng.choice(deal.legal_plays()))
    legal = set(deal.legal_plays())
    for card in CARDS:
        assert deal.can_play(card) == (card in legal)
