"""Knockout tournaments in the engine (issue 31, "Knockout tournaments"): seeding, byes and
advancement for 8, 13, 16 and 32 entrants, checked on random results with Hypothesis; byes go
to the top seeds; "Who wins" picks who goes through, under reversed scores and partnership;
a tie goes to the better seed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import HouseRules
from scorekeeper.engine import bracket
from scorekeeper.engine.errors import RuleError

#: Entrant counts of every format that make a tournament (players sit four to a table).
COUNTS = [
    (fmt, n)
    for fmt in bracket.FORMATS
    for n in (8, 13, 16, 32)
    if not bracket.count_problem(n, fmt)
]
RULES = {
    "top-two": HouseRules(),
    "pairings": HouseRules(reverse_scores=True),
    "pairs": HouseRules(partnership=True),
}


def totals_from(data):
    """A table's totals drawn by Hypothesis: ties come often (a small range)."""
    return lambda round_, table: data.draw(
        st.lists(st.integers(-3, 3).map(lambda n: 50 * n), min_size=4, max_size=4)
    )


def test_thirteen_entrants_are_pairs_and_twelve_or_fourteen_players():
    """13 entrants make a tournament of pairs (3 byes); players sit four to a table, so an odd
    count of players is refused with its reason, as are too few and too many."""
    assert ("pairs", 13) in COUNTS
    assert bracket.count_problem(13, "top-two") == "odd"
    assert bracket.count_problem(4, "top-two") == "too_few"
    assert bracket.count_problem(3, "pairs") == "too_few"
    assert bracket.count_problem(33, "pairings") == "too_many"
    with pytest.raises(RuleError):
        bracket.first_round(13, "pairings")


@pytest.mark.parametrize("fmt, count", COUNTS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_entrant_plays_until_knocked_out_and_exactly_one_wins(fmt, count, data):
    rounds, champion = bracket.play_out(count, fmt, totals_from(data), RULES[fmt])
    assert set(rounds[0].entrants) == set(range(count)), "every entrant is in the first round"
    out_in: dict[int, int] = {}
    for r, following in zip(rounds, rounds[1:] + [None]):
        seated = [e for t in r.tables for e in t.entrants]
        assert len(seated) == len(set(seated)), "no one sits at two tables of a round"
        assert not set(seated) & set(r.byes)
        assert not set(r.entrants) & set(out_in), "no one plays after being knocked out"
        assert r.byes == () or r.number == 1, "byes only in the first round"
        for table in r.tables:
            assert len(table.entrants) == (2 if fmt == "pairs" else 4)
        going_on = set(following.entrants) if following else {champion}
        assert set(r.byes) <= going_on, "a bye goes through"
        out_in.update((e, r.number) for e in set(r.entrants) - going_on)
    final = rounds[-1]
    assert len(final.tables) == 1 and final.tables[0].final and not final.byes
    assert champion in final.tables[0].entrants
    assert set(out_in) | {champion} == set(range(count))
    assert champion not in out_in, "exactly one wins"
    assert [len(r.entrants) for r in rounds[1:]] == [
        bracket.size(count) // 2**i for i in range(1, len(rounds))
    ], "each round after the first is full, half the one before"


@pytest.mark.parametrize("fmt, count", COUNTS)
def test_byes_go_to_the_top_seeds(fmt, count):
    """As many byes as the bracket has empty places, to seeds 1, 2, 3...; the second round
    is then full: half the bracket."""
    first = bracket.first_round(count, fmt)
    byes = bracket.size(count) - count
    assert first.byes == tuple(range(byes))
    assert all(min(t.entrants) >= byes for t in first.tables)
    through = [e for t in first.tables for e in t.entrants[: t.through]]
    second = bracket.seat(2, list(first.byes) + through, fmt)
    assert len(second.entrants) == bracket.size(count) // 2


def test_thirteen_pairs_give_three_byes_to_seeds_one_to_three():
    first = bracket.first_round(13, "pairs")
    assert first.byes == (0, 1, 2)
    assert [t.entrants for t in first.tables] == [(3, 12), (4, 11), (5, 10), (6, 9), (7, 8)]


def test_top_two_spread_the_seeds_in_a_snake():
    first = bracket.first_round(8, "top-two")
    assert [t.entrants for t in first.tables] == [(0, 3, 4, 7), (1, 2, 5, 6)]


@pytest.mark.parametrize(
    "rules, totals, top_two",
    [
        (HouseRules(), (300, -100, 50, 200), (0, 3)),
        (HouseRules(reverse_scores=True), (300, -100, 50, 200), (1, 2)),
    ],
)
def test_reverse_scores_pick_the_right_winners(rules, totals, top_two):
    """RULES.md "Who wins": the higher total, or the lower under reversed scores."""
    table = bracket.Table("top-two", (0, 1, 2, 3))
    assert bracket.going_through(table, totals, rules) == top_two
    final = bracket.Table("top-two", (0, 1, 2, 3), final=True)
    assert bracket.going_through(final, totals, rules) == top_two[:1]


def test_pairings_judge_each_pairing_on_its_own():
    table = bracket.Table("pairings", (0, 7, 3, 4))  # 0 against 7 at seats 1-2, 3 against 4
    assert bracket.going_through(table, (-50, 100, 10, 20), HouseRules()) == (7, 4)
    assert bracket.going_through(table, (-50, 100, 10, 20), HouseRules(reverse_scores=True)) == (
        0,
        3,
    )


@pytest.mark.parametrize(
    "rules, totals, pair",
    [
        (HouseRules(partnership=True), (100, 50, 100, 200), 1),  # 200 against 250
        (HouseRules(partnership=True, reverse_scores=True), (100, 50, 100, 200), 0),
        # the worst player's team loses: seat 1 has the lowest score
        (HouseRules(partnership=True, team_result="worst-loses"), (100, 50, 100, 200), 0),
    ],
)
def test_partnership_pairs_go_through_by_the_team_result(rules, totals, pair):
    table = bracket.Table("pairs", (2, 5))  # pair 2 at seats 1 and 3, pair 5 at seats 2 and 4
    assert table.seats() == ((2, 0), (5, 0), (2, 1), (5, 1))
    assert bracket.going_through(table, totals, rules) == ((2, 5)[pair],)


def test_a_tie_is_broken_by_the_seed():
    table = bracket.Table("top-two", (1, 6, 9, 14))
    # seats 2 and 3 tie for second: the better seed (6) goes through
    assert bracket.going_through(table, (300, 0, 0, -300), HouseRules()) == (1, 6)
    pairs = bracket.Table("pairs", (3, 12))
    assert bracket.going_through(pairs, (100, 50, 0, 50), HouseRules(partnership=True)) == (3,)


@settings(max_examples=50)
@given(count=st.integers(2, 32), seed=st.integers(0, 2**31 - 1))
def test_random_seeding_is_reproducible_and_a_permutation(count, seed):
    order = bracket.seed_order(count, "random", seed=seed)
    assert sorted(order) == list(range(count))
    assert order == bracket.seed_order(count, "random", seed=seed)


def test_seeding_by_rating_puts_the_unrated_last_in_their_order_of_entry():
    assert bracket.seed_order(5, "rating", ratings=[10.0, None, 25.0, None, 12.5]) == [
        2,
        4,
        0,
        1,
        3,
    ]
    assert bracket.seed_order(3, "entered") == [0, 1, 2]


@pytest.mark.parametrize("fmt, count", COUNTS)
def test_round_count_is_the_rounds_played(fmt, count):
    rounds, _ = bracket.play_out(count, fmt, lambda r, t: (40, 30, 20, 10), RULES[fmt])
    assert bracket.round_count(count, fmt) == len(rounds)


def test_best_of_three_goes_to_the_first_pair_with_two_wins():
    """A match as the best of three (a setting, pairs only): undecided after one game, or
    after two split; decided by two wins, each game won by "Who wins"."""
    rules = HouseRules(partnership=True)
    table = bracket.Table("pairs", (3, 12))
    a_wins, b_wins = (100, 0, 100, 0), (0, 100, 0, 100)
    assert bracket.match_through(table, [], rules, 3) is None
    assert bracket.match_through(table, [a_wins], rules, 3) is None
    assert bracket.match_through(table, [a_wins, b_wins], rules, 3) is None
    assert bracket.match_through(table, [a_wins, a_wins], rules, 3) == (3,)
    assert bracket.match_through(table, [b_wins, a_wins, b_wins], rules, 3) == (12,)
    assert bracket.match_through(table, [b_wins], rules, 1) == (12,)
    reverse = HouseRules(partnership=True, reverse_scores=True)
    assert bracket.match_through(table, [a_wins, a_wins], reverse, 3) == (12,)
    assert bracket.best_of_problem("pairs", 3) is None
    assert bracket.best_of_problem("top-two", 3) == "pairs_only"
    assert bracket.best_of_problem("pairs", 5) == "unknown"


# -- what a stored bracket cannot hold (issue 38, item 2) ------------------------------------
def played(count: int, fmt: str, seed: int = 0) -> list[list[bracket.Seated]]:
    """Every round of a bracket played out with random totals, as ``check`` reads it."""
    import random

    rng = random.Random(seed)
    rules = HouseRules(partnership=fmt == "pairs")
    totals: dict = {}

    def result(r, t):
        return totals.setdefault((r.number, t.entrants), [rng.randint(-300, 300) for _ in "abcd"])

    rounds, _ = bracket.play_out(count, fmt, result, rules)
    return [
        [
            bracket.Seated(t, bracket.going_through(t, totals[(r.number, t.entrants)], rules))
            for t in r.tables
        ]
        for r in rounds
    ]


@pytest.mark.parametrize("fmt", bracket.FORMATS)
@pytest.mark.parametrize("count", [4, 6, 8, 10, 12, 16, 22, 32])
def test_issue38_2__a_bracket_played_out_holds_nothing_that_cannot_be(fmt, count):
    if bracket.count_problem(count, fmt) is not None:
        return
    rounds = played(count, fmt, seed=count)
    who = [(f"p{i}", f"q{i}") if fmt == "pairs" else (f"p{i}",) for i in range(count)]
    assert bracket.check(count, fmt, rounds, who) == []
    undecided = rounds[:-1] + [[bracket.Seated(s.table) for s in rounds[-1]]]
    assert bracket.check(count, fmt, undecided, who) == []  # a round under way


def test_issue38_2__the_check_finds_an_entrant_twice_one_not_through_and_an_undecided_match():
    rounds = played(8, "top-two")
    who = [(f"p{i}",) for i in range(8)]
    twice = who[:3] + [who[5]] + who[4:]
    assert bracket.Problem("twice", 1, entrant=5) in bracket.check(8, "top-two", rounds, twice)
    out = next(e for e in rounds[0][0].table.entrants if e not in rounds[0][0].through)
    final = rounds[1][0]
    moved = bracket.Table("top-two", (out,) + final.table.entrants[1:], final=True)
    problems = bracket.check(8, "top-two", [rounds[0], [bracket.Seated(moved)]], who)
    kinds = {p.kind for p in problems}
    assert {"not_through", "not_seated"} <= kinds
    reopened = [[bracket.Seated(rounds[0][0].table)] + rounds[0][1:], rounds[1]]
    assert bracket.Problem("undecided", 1, table=1) in bracket.check(8, "top-two", reopened, who)
