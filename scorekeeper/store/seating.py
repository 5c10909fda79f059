"""Seating a club night: several tables of four, round after round.

Pure functions of the night's players and what happened so far; ``store.clubnights`` keeps the
rounds in the database. A round seats every player exactly once: at a table, or sitting out when
the number of players is not a multiple of four. Who sits out rotates: those who sat out least
so far sit out first, the lower of the night's standings before the higher ones. The first round
is seated at random (from a seed, so it can be told again) or as the players were entered; every
later round by the night's standings, so that strong players meet: the top four at table 1, the
next four at table 2, and so on. In a partnership night the players of a table are paired so that
nobody partners the same player twice while that can be avoided (partners sit opposite: seats 0
and 2, 1 and 3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Hashable, Sequence

from .refused import N_, Refused

MIN_PLAYERS = 8
MAX_PLAYERS = 32
TABLE = 4


@dataclass(frozen=True)
class Round:
    """Each table's four players in seat order, and who sits this round out."""

    tables: tuple[tuple[Hashable, Hashable, Hashable, Hashable], ...]
    sitting_out: tuple[Hashable, ...] = ()

    def seated(self) -> list[Hashable]:
        return [p for table in self.tables for p in table] + list(self.sitting_out)


@dataclass
class History:
    """What the seating of a later round needs from the rounds before."""

    sat_out: dict[Hashable, int] = field(default_factory=dict)
    partners: set[frozenset] = field(default_factory=set)

    def add(self, round_: Round, partnership: bool) -> None:
        for player in round_.sitting_out:
            self.sat_out[player] = self.sat_out.get(player, 0) + 1
        if partnership:
            for table in round_.tables:
                self.partners.add(frozenset((table[0], table[2])))
                self.partners.add(frozenset((table[1], table[3])))


def check_players(players: Sequence[Hashable]) -> None:
    """Raise Refused unless *players* can make a club night."""
    twice = next((p for i, p in enumerate(players) if p in players[:i]), None)
    if twice is not None:
        raise Refused(N_("%(name)s is entered twice."), names={"name": str(twice)})
    if len(players) < MIN_PLAYERS:
        raise Refused(
            N_("A club night needs at least %(least)s players (two tables); entered: %(count)s."),
            least=MIN_PLAYERS,
            count=len(players),
        )
    if len(players) > MAX_PLAYERS:
        raise Refused(
            N_("A club night seats at most %(most)s players (eight tables); entered: %(count)s."),
            most=MAX_PLAYERS,
            count=len(players),
        )


def sitting_out(ranked: Sequence[Hashable], history: History) -> list[Hashable]:
    """Who sits this round out: the players who sat out least so far, the lowest of *ranked*
    (best first) first among equals."""
    count = len(ranked) % TABLE
    if not count:
        return []
    lowest_first = list(reversed(ranked))
    order = sorted(
        range(len(lowest_first)), key=lambda i: (history.sat_out.get(lowest_first[i], 0), i)
    )
    return [lowest_first[i] for i in order[:count]]


def pair(four: Sequence[Hashable], history: History) -> tuple[Hashable, ...]:
    """The four players of a table in seat order for a partnership night: of the three ways to
    pair them, the first (in the order the players came) that repeats no partnership, else the
    one that repeats fewest."""
    a, b, c, d = four
    ways = [(a, b, c, d), (a, c, b, d), (a, b, d, c)]  # partners: seats 0+2 and 1+3

    def repeats(seats: tuple[Hashable, ...]) -> int:
        return (frozenset((seats[0], seats[2])) in history.partners) + (
            frozenset((seats[1], seats[3])) in history.partners
        )

    return min(ways, key=repeats)


def seat_round(ranked: Sequence[Hashable], history: History, *, partnership: bool = False) -> Round:
    """A round for *ranked* (the players, best first: by the night's standings, or for the first
    round in the order drawn or entered)."""
    out = sitting_out(ranked, history)
    playing = [p for p in ranked if p not in out]
    tables = []
    for start in range(0, len(playing), TABLE):
        four = playing[start : start + TABLE]
        tables.append(tuple(pair(four, history) if partnership else four))
    return Round(tuple(tables), tuple(out))  # type: ignore[arg-type]


def first_round(
    players: Sequence[Hashable],
    *,
    seed: int | None,
    partnership: bool = False,
) -> Round:
    """The first round: at random from *seed*, or as entered when *seed* is None."""
    check_players(players)
    order = list(players)
    if seed is not None:
        random.Random(seed).shuffle(order)
    return seat_round(order, History(), partnership=partnership)
