"""What the engine enters for a deal played card by card, checked against the tricks themselves.

Deals are played to the end, by random legal moves and by the simulator's bots. From the deal's
history alone (the doubling decisions, and each trick's cards in playing order with its leader
and winner) this file counts what each player took, written here from RULES.md and the card
texts ("QD", "10H") without the engine's masks, tallies or scorer. That count must equal the
result fields the engine derives (``deal.result()``, engine/play/tally.py), which are what the
scorer then scores.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine import HouseRules
from scorekeeper.engine.cards import deal_masks
from scorekeeper.engine.contracts import NEGATIVE_CONTRACTS
from scorekeeper.engine.play import CardPlayed, DoubleDecision, TrexDeal, TrickDeal, TrickWon
from scorekeeper.engine.simulate import simulate_game

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
QUEENS = {"QS": "spades", "QH": "hearts", "QD": "diamonds", "QC": "clubs"}


def suit(card: Any) -> str:
    return str(card)[-1]


def rank(card: Any) -> int:
    return RANKS.index(str(card)[:-1])


def trick_winner(leader: int, cards: tuple) -> int:
    """The highest card of the suit led wins; the cards are in playing order from the leader,
    and play goes to the leader's right (seat + 1)."""
    led = suit(cards[0])
    best = max((c for c in cards if suit(c) == led), key=rank)
    return (leader + cards.index(best)) % 4


def counted_from_tricks(deal: TrickDeal) -> dict[str, Any]:
    """The result fields of a trick deal, counted from its history."""
    holders = {
        str(r.card): int(r.seat)
        for r in deal.history
        if isinstance(r, DoubleDecision) and r.doubled
    }
    tricks = [r for r in deal.history if isinstance(r, TrickWon)]
    won = [0, 0, 0, 0]
    diamonds = [0, 0, 0, 0]
    captured: dict[str, dict[str, int]] = {}
    leader = int(deal.dealer)  # the King leads the first trick
    for trick in tricks:
        assert int(trick.leader) == leader  # the winner of each trick leads the next
        winner = trick_winner(leader, trick.cards)
        assert int(trick.winner) == winner
        won[winner] += 1
        for card in trick.cards:
            text = str(card)
            diamonds[winner] += suit(card) == "D"
            if text == "KH" or text in QUEENS:
                entry = {"taker": winner}
                if text in holders and deal.rules.doubling:
                    entry["doubled_by"] = holders[text]
                    if holders[text] == winner and deal.rules.self_capture == "leader-credit":
                        entry["led_by"] = leader
                captured[text] = entry
        leader = winner
    names = [c.value for c in deal.contracts]
    out: dict[str, Any] = {"king": int(deal.dealer), "contracts": names}
    if "king_of_hearts" in names:
        out["king_of_hearts"] = captured["KH"]
    if "diamonds" in names:
        out["diamonds"] = diamonds
    if "queens" in names:
        out["queens"] = {name: captured[text] for text, name in QUEENS.items()}
    if "collections" in names:
        out["tricks"] = won
    return out


def counted_order(deal: TrexDeal) -> list[int]:
    """Trex: a player is out when their thirteenth card is on the table; the last player left
    is last."""
    played = [0, 0, 0, 0]
    order: list[int] = []
    for record in deal.history:
        if isinstance(record, CardPlayed):
            seat = int(record.seat)
            played[seat] += 1
            if played[seat] == 13:
                order.append(seat)
    assert len(order) == 3
    return order + [6 - sum(order)]


def check_against_tricks(deal: TrickDeal | TrexDeal, recorded: dict[str, Any]) -> None:
    if isinstance(deal, TrexDeal):
        expected = {
            "king": int(deal.dealer),
            "contracts": ["trex"],
            "trex_order": counted_order(deal),
        }
    else:
        expected = counted_from_tricks(deal)
    result = deal.result()
    assert result == expected
    assert {k: v for k, v in recorded.items() if k != "sweep_kept"} == expected


# --- random legal play ------------------------------------------------------------------------
RULE_CHOICES = st.fixed_dictionaries(
    {
        "doubling": st.booleans(),
        "self_capture": st.sampled_from(["single", "leader-credit"]),
        "no_heart_lead": st.booleans(),
        "must_discard_penalty": st.booleans(),
    }
)
CONTRACT_GROUPS = st.sets(st.sampled_from(NEGATIVE_CONTRACTS), min_size=1).map(tuple)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), CONTRACT_GROUPS, RULE_CHOICES, st.booleans())
def test_trick_contracts_what_each_player_took_is_what_the_tricks_hold(
    seed, contracts, rule_values, stop_early
):
    rng = random.Random(seed)
    deal = TrickDeal(
        deal_masks(rng),
        rng.randrange(4),
        contracts,
        HouseRules(**rule_values),
        stop_early=stop_early,
    )
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    tricks = [r for r in deal.history if isinstance(r, TrickWon)]
    if len(tricks) < 13:  # King of Hearts alone stops with the trick that holds the K♥
        assert stop_early and [c.value for c in deal.contracts] == ["king_of_hearts"]
        assert "KH" in map(str, tricks[-1].cards)
    check_against_tricks(deal, deal.result())


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.booleans())
def test_trex_the_finishing_order_is_the_order_players_ran_out(seed, dealer, partnership):
    rng = random.Random(seed)
    deal = TrexDeal(deal_masks(rng), dealer, HouseRules(partnership=partnership))
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    check_against_tricks(deal, deal.result())


# --- whole simulated games, deal by deal --------------------------------------------------------
VARIANTS = [
    {},
    {"self_capture": "leader-credit", "combining": "combination"},
    {"combining": "complex", "partnership": True, "must_discard_penalty": True},
    {"swap_diamonds_collections": True, "no_heart_lead": True, "reverse_scores": True},
    {
        "sweep_replay": {"collections_tricks": 7},
        "kh_redeal_any_doubleton": True,
        "combining": "combination",
    },
    {
        "doubling": False,
        "fixed_order": ["trex", "queens", "king_of_hearts", "diamonds", "collections"],
    },
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(r) or "standard")
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_simulated_games_every_recorded_result_is_what_the_tricks_hold(rules, bot):
    house = HouseRules.from_dict(rules)
    for seed in range(12 if bot == "random" else 3):
        seen: list[tuple[Any, dict[str, Any]]] = []
        doc = simulate_game(seed, house, bot, observe=lambda d, r: seen.append((d, r)))
        played = [d for d in doc["deals"] if "contracts" in d]
        assert len(played) == len(seen)
        for (deal, result), recorded in zip(seen, played):
            assert recorded is result
            check_against_tricks(deal, recorded)
