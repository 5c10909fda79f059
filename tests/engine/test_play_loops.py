"""Issue 29, "One rule, one place in play": the three ways a trick deal is played (the deal
objects, the bots on masks, the random players) read the rules of play from one
``TrickPlay`` and take the same cards, trick for trick, on every combination of rules."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine.bots import RandomBot
from scorekeeper.engine.cards import deal_masks, indices_of
from scorekeeper.engine.contracts import NEGATIVE_CONTRACTS, Contract
from scorekeeper.engine.play import TrickDeal
from scorekeeper.engine.play.fast import play_tricks_randomly
from scorekeeper.engine.play.quick import play_tricks
from scorekeeper.engine.play.trickplay import KH_BIT, trick_play
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.simulate import play_out, simulate_game

from test_engine_rules import rules_dicts

#: Every deal of trick contracts a King may announce: each negative contract alone, and each
#: group of them (Complex, Combination).
SHAPES = [group for size in range(1, 5) for group in combinations(NEGATIVE_CONTRACTS, size)]
#: Every combination of the rules that change how the cards are played.
PLAY_RULES = [
    HouseRules(doubling=False, no_heart_lead=lead, must_discard_penalty=discard)
    for lead, discard in product((False, True), repeat=2)
]


def three_ways(hands: list[int], dealer: int, contracts, rules: HouseRules, seed: int):
    """The same deal played by random players three ways, each drawing from its own
    generator seeded alike: what each says was taken."""
    deal = TrickDeal(hands, dealer, contracts, rules)
    play_out(deal, [RandomBot(seed)] * 4)
    objects = ([deal.taken_mask(s) for s in range(4)], [deal.tricks_taken(s) for s in range(4)])
    bot = RandomBot(seed)
    quick = play_tricks(hands, dealer, contracts, rules, {}, [bot] * 4)
    lists = [sorted(indices_of(h)) for h in hands]
    fast = play_tricks_randomly(lists, dealer, contracts, rules, random.Random(seed).random)
    return objects, (quick.taken, quick.tricks), (fast.taken, fast.tricks)


@pytest.mark.parametrize(
    "rules",
    PLAY_RULES,
    ids=lambda r: f"no_heart_lead={r.no_heart_lead},must_discard={r.must_discard_penalty}",
)
@pytest.mark.parametrize("contracts", SHAPES, ids=lambda s: "+".join(c.value for c in s))
def test_the_three_loops_take_the_same_cards_under_every_rule_of_play(rules, contracts):
    for seed in range(8):
        hands = deal_masks(random.Random(1000 + seed))
        objects, quick, fast = three_ways(hands, seed % 4, contracts, rules, seed)
        assert objects == quick == fast


def test_trick_play__the_rules_of_play_as_masks():
    kh = (Contract.KING_OF_HEARTS,)
    assert trick_play(kh, HouseRules()).stop == KH_BIT
    assert trick_play(kh + (Contract.QUEENS,), HouseRules()).stop == 0
    assert trick_play(kh, HouseRules(), stop_early=False).stop == 0
    plain = trick_play((Contract.DIAMONDS,), HouseRules(no_heart_lead=True))
    assert plain.lead.bit_count() == 52 and plain.discard == 0
    hearts_off = trick_play(kh, HouseRules(no_heart_lead=True))
    assert hearts_off.lead.bit_count() == 39
    assert (
        trick_play((Contract.QUEENS,), HouseRules(must_discard_penalty=True)).discard.bit_count()
        == 4
    )


#: Any combination of every declared house rule.
any_rules = rules_dicts.map(HouseRules.from_dict)


@settings(max_examples=25, deadline=None)
@given(any_rules, st.integers(0, 10_000))
def test_whole_games_are_the_same_whichever_loop_plays_them_on_any_rules(rules, seed):
    assert simulate_game(seed, rules, "random", fast=True) == simulate_game(
        seed, rules, "random", fast=False
    )
    assert simulate_game(seed, rules, "heuristic", fast=True) == simulate_game(
        seed, rules, "heuristic", fast=False
    )
