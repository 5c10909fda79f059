"""Seating a club night (store.seating): every player once a round, the sit-outs rotating, later
rounds by the night's standings, partners not repeated."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.store.refused import Refused
from scorekeeper.store.seating import History, first_round, seat_round

PLAYERS = [f"P{n:02d}" for n in range(1, 33)]


def rounds(players, count, *, seed, partnership=False):
    """*count* rounds, each later one seated by a random order of standings."""
    rng = random.Random(seed)
    history = History()
    out = [first_round(players, seed=seed, partnership=partnership)]
    history.add(out[0], partnership)
    for _ in range(count - 1):
        standings = list(players)
        rng.shuffle(standings)
        out.append(seat_round(standings, history, partnership=partnership))
        history.add(out[-1], partnership)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 32), st.integers(1, 6), st.integers(0, 10**6), st.booleans())
def test_every_player_sits_exactly_once_per_round(count, how_many, seed, partnership):
    players = PLAYERS[:count]
    for round_ in rounds(players, how_many, seed=seed, partnership=partnership):
        assert sorted(round_.seated()) == sorted(players)
        assert all(len(table) == 4 for table in round_.tables)
        assert len(round_.sitting_out) == count % 4


def test_later_rounds_follow_the_standings_top_four_at_table_one():
    players = PLAYERS[:12]
    standings = list(reversed(players))  # the last entered now leads
    round_ = seat_round(standings, History())
    assert [set(t) for t in round_.tables] == [
        set(standings[0:4]),
        set(standings[4:8]),
        set(standings[8:12]),
    ]


def test_the_first_round_as_entered_or_at_random_from_a_seed():
    players = PLAYERS[:8]
    as_entered = first_round(players, seed=None)
    assert as_entered.tables == (tuple(players[:4]), tuple(players[4:]))
    drawn = first_round(players, seed=7)
    assert drawn == first_round(players, seed=7) and drawn != as_entered


@pytest.mark.parametrize("seed", range(25))
def test_over_three_rounds_of_eight_partners_never_repeat(seed):
    partners = Counter()
    for round_ in rounds(PLAYERS[:8], 3, seed=seed, partnership=True):
        for a, b, c, d in round_.tables:
            partners[frozenset((a, c))] += 1
            partners[frozenset((b, d))] += 1
    assert max(partners.values()) == 1 and sum(partners.values()) == 12


def test_thirteen_players_rotate_who_sits_out():
    sat_out = Counter()
    for round_ in rounds(PLAYERS[:13], 13, seed=3):
        assert len(round_.sitting_out) == 1
        sat_out.update(round_.sitting_out)
    assert sorted(sat_out.values()) == [1] * 13  # everyone once, nobody twice


def test_the_lowest_of_the_standings_sits_out_first():
    players = PLAYERS[:10]
    round_ = seat_round(players, History())  # players in standing order, best first
    assert set(round_.sitting_out) == {players[-1], players[-2]}


@pytest.mark.parametrize(
    "players, message",
    [
        (PLAYERS[:7], "A club night needs at least 8 players (two tables); entered: 7."),
        (
            PLAYERS[:32] + ["P99"],
            "A club night seats at most 32 players (eight tables); entered: 33.",
        ),
        (PLAYERS[:8] + ["P03"], "P03 is entered twice."),
    ],
)
def test_bad_nights_are_refused_with_a_reason(players, message):
    with pytest.raises(Refused) as info:
        first_round(players, seed=None)
    assert str(info.value) == message
