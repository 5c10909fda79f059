"""House rules as one frozen settings object (RULES.md: "Every variant below is a setting")."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from scorekeeper.engine import HouseRules, Progress, RulesError
from scorekeeper.engine.contracts import ALL_CONTRACTS, Contract
from scorekeeper.engine.rules import COMBINING, ROTATION, RULE, RULES, SELF_CAPTURE, TEAM_RESULT

CONTRACTS = ["king_of_hearts", "diamonds", "queens", "collections", "trex"]


def test_house_rules__defaults_are_the_rule_book_defaults():
    rules = HouseRules.from_dict({})
    assert rules.doubling and rules.self_capture == "single" and rules.combining == "none"
    assert rules.rotation == "right" and rules.fixed_order is None and rules.sweep_replay is None
    assert not (
        rules.partnership
        or rules.no_heart_lead
        or rules.must_discard_penalty
        or rules.kh_redeal_any_doubleton
        or rules.reverse_scores
        or rules.swap_diamonds_collections
    )


def test_house_rules__frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        HouseRules().doubling = False  # type: ignore[misc]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"doubling": "yes"}, "house rule 'doubling' must be true or false, not 'yes'"),
        (
            {"self_capture": "double"},
            "house rule 'self_capture' cannot be 'double'; allowed: "
            "'single', 'leader-credit', 'king-credit'",
        ),
        ({"combining": "all"}, "allowed: 'none', 'complex', 'combination'"),
        ({"fixed_order": ["trex"]}, "must be null or list each of the five contracts once"),
        ({"sweep_replay": {"collections_tricks": 3}}, "with N from 7 to 13"),
        ({"sweep_replay": 10}, '{"collections_tricks": N}'),
        ({"surprise": 1}, "unknown house rule 'surprise'; known rules: combining, doubling"),
    ],
)
def test_house_rules__unknown_key_or_value_says_what_is_allowed(data, message):
    with pytest.raises(RulesError, match=None) as info:
        HouseRules.from_dict(data)
    assert message in str(info.value)


def _values(rule) -> st.SearchStrategy:
    """Every value a declared rule takes, as the file format writes it."""
    if rule.kind == "bool":
        return st.booleans()
    if rule.kind == "choice":
        return st.sampled_from(rule.values)
    if rule.kind == "order":
        return st.none() | st.permutations(CONTRACTS)
    return st.none() | st.builds(lambda n: {"collections_tricks": n}, st.integers(7, 13))


def _with_needs(data: dict) -> dict:
    """*data* with what each changed rule needs (split_queens_replay: partnership)."""
    for rule in RULES:
        if rule.name in data and data[rule.name] != rule.dump(rule.default):
            data.update({other: RULE[other].dump(value) for other, value in rule.needs})
    return data


#: Every declared rule, the three kept for the names files know checked by hand.
rules_dicts = st.fixed_dictionaries({}, optional={rule.name: _values(rule) for rule in RULES}).map(
    _with_needs
)


def test_house_rules__the_declarations_are_the_rule_book_variants():
    assert [r.name for r in RULES] == [
        "doubling",
        "self_capture",
        "swap_diamonds_collections",
        "combining",
        "partnership",
        "team_result",
        "rotation",
        "fixed_order",
        "sweep_replay",
        "no_heart_lead",
        "must_discard_penalty",
        "kh_redeal_any_doubleton",
        "reverse_scores",
        "split_queens_replay",
        "no_redeal_requests",
    ]
    assert SELF_CAPTURE == ("single", "leader-credit", "king-credit")
    assert (COMBINING, TEAM_RESULT, ROTATION) == (
        ("none", "complex", "combination"),
        ("sum", "worst-loses"),
        ("right", "table-picks"),
    )


@given(rules_dicts)
def test_house_rules__round_trip_through_the_file_format(data):
    rules = HouseRules.from_dict(data)
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert HouseRules.from_dict(rules.changed()) == rules
    assert isinstance(rules.summary(), str) and rules.summary()


def test_engine__imports_without_the_web_wing():
    code = (
        "import sys, scorekeeper.engine, scorekeeper.engine.simulate, "
        "scorekeeper.engine.bots;"
        "bad = [m for m in ('flask', 'sqlite_utils', 'weasyprint', 'flask_wtf', "
        "'flask_babel', 'jinja2') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_options_after__every_reachable_set_maps_to_the_kings_open_choices():
    """Progress.options_after (issue 28, deals waiting on a phone): the empty set gives the
    choices open now; each set the King's choices reach gives those left after it; the set
    that completes the kingdom is not there (the next King chooses then)."""
    progress = Progress(HouseRules(), 0)
    after = progress.options_after()
    assert after[frozenset()] == progress.deal_options()
    assert frozenset(ALL_CONTRACTS) not in after and len(after) == 31
    used = frozenset({Contract.DIAMONDS, Contract.TREX})
    assert after[used] == [(Contract.KING_OF_HEARTS,), (Contract.QUEENS,), (Contract.COLLECTIONS,)]
    complex_after = Progress(HouseRules(combining="complex"), 0).options_after()
    assert set(complex_after) == {
        frozenset(),
        frozenset({Contract.TREX}),
        frozenset(ALL_CONTRACTS[:4]),
    }
