"""The contract advisor (engine/advisor): hands whose answer is obvious, the ranking by gain,
common random numbers, the same answer from the same seed in one process or many, the average
hand kept per rule set, and hands read from text. Small deal counts keep each test quick."""

from __future__ import annotations

import pytest

from scorekeeper.engine.advisor import AdviceError, advise, baseline, parse_contracts, parse_hand
from scorekeeper.engine.advisor.core import _within_noise
from scorekeeper.engine.advisor.playout import PLAYED, Outcome, sample_hands
from scorekeeper.engine.contracts import ALL_CONTRACTS, Contract
from scorekeeper.engine.progression import deal_options
from scorekeeper.engine.rules import HouseRules

KH, DI, QU, CO, TX = ALL_CONTRACTS
STANDARD = HouseRules()
ALL_OPEN = deal_options(ALL_CONTRACTS, STANDARD)
#: The K♥ with six low hearts: nobody can make the King take it.
KING_WITH_LOW_HEARTS = "KH 2H 3H 4H 5H 6H 7H 3S 4S 5S 3D 4D 3C"
#: All four 2s, and middling cards: in Trex the 2s are the last cards anyone can play.
FOUR_TWOS = "2S 2H 2D 2C 5S 8S 6H 9H 4D 7D TD 3C 8C"


def by_contracts(advice):
    return {choice.contracts: choice for choice in advice.choices}


def test_the_king_of_hearts_with_many_low_hearts__king_of_hearts_is_safe():
    advice = advise(parse_hand(KING_WITH_LOW_HEARTS), ALL_OPEN, STANDARD, deals=40, seed=3)
    king = by_contracts(advice)[(KH,)]
    assert king.king_of_hearts == 0  # never taken by the King
    assert king.expected >= 0 and king.low >= 0  # nothing to lose, +75 when doubled and taken
    assert king.gain > 0 and king.best
    assert advice.best.contracts == (KH,)


def test_all_four_twos__not_trex():
    advice = advise(parse_hand(FOUR_TWOS), ALL_OPEN, STANDARD, deals=40, seed=3)
    trex = by_contracts(advice)[(TX,)]
    assert advice.best.contracts != (TX,)
    assert trex.gain < 0 and not trex.within_noise
    assert trex.place > 3.5 and trex.first_out < 0.05
    # Ranked by gain, not by points: Trex still scores more than the contract chosen.
    assert trex.expected > advice.best.expected
    assert advice.own_redeals == ("trex-twos",)


def test_ranked_by_gain__the_hand_minus_an_average_hand():
    advice = advise(parse_hand(FOUR_TWOS), ALL_OPEN, STANDARD, deals=20, seed=5)
    gains = [c.gain for c in advice.choices]
    assert gains == sorted(gains, reverse=True)
    averages = baseline.averages(STANDARD, ALL_OPEN)
    for choice in advice.choices:
        assert choice.average_hand == averages[choice.contracts].mean
        assert choice.gain == pytest.approx(choice.expected - choice.average_hand)
        assert choice.low <= choice.expected <= choice.high
        assert choice.gain_low <= choice.gain <= choice.gain_high
    assert [c.best for c in advice.choices] == [True] + [False] * 4


def test_under_reversed_scores_a_gain_is_still_better_when_higher():
    rules = HouseRules(reverse_scores=True)
    normal = advise(parse_hand(FOUR_TWOS), ALL_OPEN, STANDARD, deals=20, seed=5)
    reverse = advise(parse_hand(FOUR_TWOS), ALL_OPEN, rules, deals=20, seed=5)
    assert [c.contracts for c in reverse.choices] == [c.contracts for c in normal.choices]
    for a, b in zip(normal.choices, reverse.choices):
        assert (b.expected, b.average_hand) == pytest.approx((-a.expected, -a.average_hand))
        assert b.gain == pytest.approx(a.gain)


def test_the_same_seed_gives_the_same_advice_and_another_seed_other_deals():
    hand = parse_hand("AS 9S 4S KH 8H 3H QD JD 5D 2D AC 6C 2C")
    first = advise(hand, ALL_OPEN, STANDARD, deals=12, seed=11)
    assert advise(hand, ALL_OPEN, STANDARD, deals=12, seed=11).to_dict() == first.to_dict()
    other = advise(hand, ALL_OPEN, STANDARD, deals=12, seed=12)
    assert other.to_dict() != first.to_dict()


def test_the_same_advice_from_the_worker_processes_as_from_one():
    hand = parse_hand("AS 9S 4S KH 8H 3H QD JD 5D 2D AC 6C 2C")
    alone = advise(hand, ALL_OPEN, STANDARD, deals=16, seed=2, parallel=False)
    spread = advise(hand, ALL_OPEN, STANDARD, deals=16, seed=2, parallel=True)
    assert spread.to_dict() == alone.to_dict()


def test_every_choice_is_played_on_the_same_deals():
    """Common random numbers: a sample's cards depend on the seed and its number only, so a
    choice's figures do not change with the other choices asked about."""
    hand = parse_hand(KING_WITH_LOW_HEARTS)
    assert sample_hands(hand, 4, 7) == sample_hands(hand, 4, 7)
    together = by_contracts(advise(hand, [(QU,), (CO,), (DI,)], STANDARD, deals=10, seed=4))
    alone = by_contracts(advise(hand, [(QU,)], STANDARD, deals=10, seed=4))
    assert alone[(QU,)].expected == together[(QU,)].expected
    assert alone[(QU,)].queens == together[(QU,)].queens


def test_sample_hands__the_kings_cards_and_the_other_39_dealt_13_each():
    hand = parse_hand(FOUR_TWOS)
    hands = sample_hands(hand, 1, 0)
    assert hands[0] == hand
    assert [h.bit_count() for h in hands] == [13] * 4
    assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1


def test_without_a_number_of_deals__enough_for_ten_points_each_way():
    advice = advise(parse_hand(FOUR_TWOS), [(QU,), (TX,)], STANDARD, seed=1)
    assert all(c.margin <= 10 for c in advice.choices)
    assert all(c.samples >= 200 for c in advice.choices)


def test_combined_deals_under_combination_and_complex():
    hand = parse_hand(FOUR_TWOS)
    combination = HouseRules(combining="combination")
    options = deal_options([KH, QU, TX], combination)
    advice = advise(hand, options, combination, deals=6, seed=1)
    assert {c.contracts for c in advice.choices} == {(KH,), (QU,), (KH, QU), (TX,)}
    both = by_contracts(advice)[(KH, QU)]
    assert both.king_of_hearts is not None and both.queens is not None and both.place is None
    complex_ = HouseRules(combining="complex")
    advice = advise(hand, deal_options(ALL_CONTRACTS, complex_), complex_, deals=6, seed=1)
    assert {c.contracts for c in advice.choices} == {(KH, DI, QU, CO), (TX,)}


def test_partnership__the_points_of_the_king_and_the_partner():
    partnership = HouseRules(partnership=True)
    average = baseline.averages(partnership, [(TX,)])[(TX,)]
    assert 240 < average.mean < 260  # two of the four Trex places, 500 points in all


def test_within_the_noise__compared_deal_by_deal():
    same = [Outcome(PLAYED, p) for p in (-25, 0, -50, 0, -25, 0)]
    lower = [Outcome(PLAYED, p - 25) for p in (-25, 0, -50, 0, -25, 0)]
    level = baseline.Average(0.0, 0.0, 0)
    assert _within_noise(same, list(same), level, level, 1)
    assert not _within_noise(same, lower, level, level, 1)


def test_the_average_hand__shipped_for_the_presets_measured_and_kept_for_other_rules(monkeypatch):
    table = baseline._shipped()
    for rules in baseline.TABLE_RULES:
        kept = table[baseline.rules_key(rules)]
        assert set(kept) == {baseline.choice_key(c) for c in baseline.every_choice()}
        assert all(a.deals >= 0.9 * baseline.TABLE_SAMPLES for a in kept.values())
    # Complex, Combination, a fixed order and reversed scores play single deals as the standard
    assert baseline.rules_key(
        HouseRules(combining="complex", reverse_scores=True, rotation="table-picks")
    ) == baseline.rules_key(STANDARD)
    measured = []
    real = baseline.measure

    def measure(rules, choices, samples, seed, parallel=None):
        measured.append(list(choices))
        return real(rules, choices, 30, seed, parallel)

    monkeypatch.setattr(baseline, "measure", measure)
    monkeypatch.setattr(baseline, "_measured", {})
    rules = HouseRules(no_heart_lead=True)
    first = baseline.averages(rules, [(KH,), (TX,)])
    again = baseline.averages(rules, [(TX,), (KH,)])
    assert measured == [[(KH,), (TX,)]] and first == again
    baseline.averages(rules, [(QU,), (KH,)])
    assert measured[1:] == [[(QU,)]]


@pytest.mark.parametrize(
    "text, code",
    [
        ("AS KS QS", "hand_size"),
        ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH", "hand_size"),
        ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 3S", "hand_card_twice"),
        ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 1S", "hand_not_card"),
        ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2X", "hand_not_card"),
        ("", "hand_size"),
    ],
)
def test_a_hand_that_cannot_be(text, code):
    with pytest.raises(AdviceError) as caught:
        parse_hand(text)
    assert caught.value.code == code


def test_a_hand_in_letters_or_symbols_10_or_t():
    letters = parse_hand("AS KS 7H TD 10C 2D 3D 4D 5D 6D 7D 8D 9D")
    symbols = parse_hand(
        ["A♠", "K♠", "7♥", "10♦", "T♣", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦"]
    )
    assert letters == symbols and letters.bit_count() == 13


def test_open_contracts_by_name():
    assert parse_contracts("queens,king_of_hearts, queens") == (KH, QU)
    with pytest.raises(AdviceError) as caught:
        parse_contracts("queens,kings")
    assert caught.value.code == "advice_unknown_contract"
    with pytest.raises(AdviceError):
        parse_contracts(" , ")
    assert Contract.TREX in parse_contracts(["trex"])


def deal_object_outcome(hands, contracts, rules):
    """The King's outcome with the engine's deal objects, which check every card: the reference
    the advisor's play-outs on plain ints must equal (no redeal asked, no sweep replayed)."""
    from scorekeeper.engine.cards import DIAMONDS_MASK, KING_OF_HEARTS, QUEENS_MASK
    from scorekeeper.engine.play import TrexDeal, new_deal
    from scorekeeper.engine.simulate import play_out
    from scorekeeper.engine.advisor.playout import _BOTS

    deal = new_deal(list(hands), 0, contracts, rules)
    play_out(deal, _BOTS)
    points = deal.scores() if isinstance(deal, TrexDeal) else deal.scores(sweep_kept=True)
    side = points[0] + points[2] if rules.partnership else points[0]
    if isinstance(deal, TrexDeal):
        return Outcome(PLAYED, side, place=deal.finishing_order.index(0))
    taken = deal.taken_mask(0)
    return Outcome(
        PLAYED,
        side,
        int(bool(taken & KING_OF_HEARTS.bit)),
        (taken & DIAMONDS_MASK).bit_count(),
        (taken & QUEENS_MASK).bit_count(),
        deal.tricks_taken(0),
    )


@pytest.mark.parametrize(
    "rules",
    [
        HouseRules(),
        HouseRules(combining="combination"),
        HouseRules(partnership=True),
        HouseRules(reverse_scores=True, no_heart_lead=True, must_discard_penalty=True),
    ],
    ids=["standard", "combination", "partnership", "reverse"],
)
def test_play_outs_on_ints__the_same_as_the_deal_objects(rules):
    """The advisor plays its samples on plain ints (engine/play/quick.py), four times as fast;
    every sample's outcome for every choice equals the one the checked deal objects give."""
    from scorekeeper.engine.advisor.playout import play_choice

    compared = 0
    for index in range(40):
        hands = sample_hands(None, 11, index)
        for contracts in deal_options(ALL_CONTRACTS, rules):
            fast = play_choice(hands, tuple(contracts), rules, True)
            if fast.status != PLAYED:
                continue
            assert fast == deal_object_outcome(hands, tuple(contracts), rules), (index, contracts)
            compared += 1
    assert compared > 150
