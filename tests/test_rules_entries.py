"""Entries that cannot have happened, refused through the engine's read and validate path
(RULES.md "Combined deals", "King of Hearts", "Trex", "Sweeps"), each with its message."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from gamebuilder import standard_game
from scorekeeper.engine import HouseRules, InvalidResult, Progress, read_game, validate_entry

NAMES = ("Aya", "Bilal", "Carla", "Dana")
CONTRACT_NAMES = ["king_of_hearts", "diamonds", "queens", "collections", "trex"]


def refused(doc: dict) -> list[str]:
    with pytest.raises(InvalidResult) as info:
        read_game(doc)
    return [str(p) for p in info.value.problems]


def entry_problems(raw: dict, rules: dict | None = None, first_king: int = 0) -> list[str]:
    progress = Progress(HouseRules.from_dict(rules or {}), first_king, NAMES)
    record, problems = validate_entry(raw, progress)
    assert (record is None) == bool(problems)
    return [str(p) for p in problems]


# --- RULES.md "Combined deals": a deal names each of its contracts once ---------------------
def test_combined_deals_a_contract_listed_twice_is_refused_naming_the_deal():
    doc = standard_game()
    doc["deals"][2] = {"king": 0, "contracts": ["diamonds", "diamonds"],
                       "diamonds": [4, 3, 2, 4]}
    assert refused(doc) == ["Deal 3: Diamonds is listed twice"]


def test_combined_deals_a_contract_listed_twice_is_refused_as_an_entry():
    raw = {"king": 0, "contracts": ["queens", "diamonds", "queens"], "diamonds": [4, 3, 2, 4],
           "queens": {s: {"taker": 1} for s in ("spades", "hearts", "diamonds", "clubs")}}
    assert entry_problems(raw, {"combining": "combination"}) == [
        "Deal 1: Queens is listed twice"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CONTRACT_NAMES), min_size=2, max_size=6)
       .filter(lambda names: len(set(names)) < len(names)),
       st.sampled_from(["none", "complex", "combination"]))
def test_combined_deals_any_list_with_a_repeat_is_refused_never_a_crash(names, combining):
    raw = {"king": 0, "contracts": names, "diamonds": [4, 3, 2, 4], "tricks": [4, 3, 2, 4]}
    problems = entry_problems(raw, {"combining": combining})
    repeated = next(n for i, n in enumerate(names) if n in names[:i])
    label = {"king_of_hearts": "King of Hearts"}.get(repeated, repeated.title())
    assert problems == [f"Deal 1: {label} is listed twice"]
