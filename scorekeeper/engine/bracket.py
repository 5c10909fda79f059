"""Knockout tournaments: seeding, byes, who meets whom, and who goes through (RULES.md "Who
wins").

Pure: entrants are their seeds, 0 the best; a table's result is its game's totals. Three
formats, chosen when the tournament is made (``FORMATS``):

- ``top-two``: players; a table of four is one match, its top two go through;
- ``pairings``: players; a table of four seats two pairings (seats 1 and 3 against each other,
  2 and 4 against each other), the better of each pairing goes through;
- ``pairs``: pairs under partnership; a table is two pairs, the winning pair goes through.

Every round halves the field; the last four players (or two pairs) meet at the final table,
whose winner takes the tournament. Byes go to the top seeds when the count is not a power of
two, so that the second round is full. Each round is seated again by seed: the best seed still
in meets the worst (``pairings``, ``pairs``), or the tables are filled in a snake so that the
top seeds are spread (``top-two``). A tie at the cut is broken by the seed: the better-seeded
side goes through.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from .errors import RuleError
from .rules import HouseRules
from .scoring import places

FORMATS = ("top-two", "pairings", "pairs")
SEEDINGS = ("random", "rating", "entered")
#: Players: an even count (every table seats four) from MIN_PLAYERS; pairs from MIN_PAIRS.
MIN_PLAYERS, MIN_PAIRS, MOST = 6, 4, 32
#: A match is one game, or the best of three: the first pair to win two (pairs only: a table
#: of four players has more than one side to go through, and a final of four has no "two wins").
BEST_OF = (1, 3)


@dataclass(frozen=True)
class Table:
    """One table of a round: its entrants (seeds) and how they are judged.

    ``top-two`` and the final of players: four sides, *through* of them go on. ``pairings``:
    four sides in two pairings, seats 0-1 and 2-3. ``pairs``: two sides, one goes on."""

    fmt: str
    entrants: tuple[int, ...]
    final: bool = False

    @property
    def through(self) -> int:
        """How many of its entrants go through: one at the final and under ``pairs``, else two."""
        return 1 if self.final or self.fmt == "pairs" else 2

    def seats(self) -> tuple[tuple[int, int], ...]:
        """(entrant, partner number) at seats 0 to 3: a pair sits opposite, its first player
        (partner 0) at seat 0 or 1, its second at seat 2 or 3."""
        if self.fmt == "pairs":
            a, b = self.entrants
            return ((a, 0), (b, 0), (a, 1), (b, 1))
        return tuple((e, 0) for e in self.entrants)


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(sorted([e for t in self.tables for e in t.entrants] + list(self.byes)))


def least(fmt: str) -> int:
    return MIN_PAIRS if fmt == "pairs" else MIN_PLAYERS


def count_problem(count: int, fmt: str) -> str | None:
    """Why *count* entrants cannot make a tournament of *fmt*: ``"too_few"``, ``"too_many"``,
    ``"odd"`` (players sit at tables of four, so their count is even); None when they can."""
    if fmt not in FORMATS:
        raise RuleError(f"Unknown tournament format {fmt!r}.")
    if count < least(fmt):
        return "too_few"
    if count > MOST:
        return "too_many"
    if fmt != "pairs" and count % 2:
        return "odd"
    return None


def size(count: int) -> int:
    """The bracket's size: the smallest power of two that holds *count* entrants."""
    n = 1
    while n < count:
        n *= 2
    return n


def round_count(count: int, fmt: str) -> int:
    """How many rounds a tournament of *count* entrants plays, the final included."""
    per_table, rounds = (2 if fmt == "pairs" else 4), 1
    while count > per_table:
        count, rounds = size(count) // 2, rounds + 1
    return rounds


def seed_order(
    count: int, how: str, *, seed: int = 0, ratings: Sequence[float | None] = ()
) -> list[int]:
    """The entrants (by their order of entry) best seed first: as entered, at random from
    *seed* (the same seed gives the same order), or by rating (the higher first; unrated
    entrants after the rated, in their order of entry)."""
    order = list(range(count))
    if how == "random":
        random.Random(seed).shuffle(order)
    elif how == "rating":
        known = [r if r is not None else float("-inf") for r in ratings]
        known += [float("-inf")] * (count - len(known))
        order.sort(key=lambda i: (-known[i], i))
    elif how != "entered":
        raise RuleError(f"Unknown seeding {how!r}.")
    return order


def seat(number: int, still_in: Sequence[int], fmt: str) -> Round:
    """Round *number* for the entrants *still_in* (seeds): byes for the top seeds when their
    count is not a power of two, then the tables."""
    field = sorted(still_in)
    per_table = 2 if fmt == "pairs" else 4
    if len(field) == per_table:
        return Round(number, (Table(fmt, tuple(field), final=True),))
    half = size(len(field)) // 2
    playing = 2 * (len(field) - half)  # they make half of the next round; the byes the rest
    byes, field = tuple(field[: len(field) - playing]), field[len(field) - playing :]
    groups: list[tuple[int, ...]]
    if fmt == "pairs":
        groups = [(field[i], field[-1 - i]) for i in range(len(field) // 2)]
    elif fmt == "pairings":
        pairs = [(field[i], field[-1 - i]) for i in range(len(field) // 2)]
        groups = [pairs[i] + pairs[-1 - i] for i in range(len(pairs) // 2)]
    else:
        tables = len(field) // 4
        snake = [list[int]() for _ in range(tables)]
        for i, entrant in enumerate(field):
            row, col = divmod(i, tables)
            snake[col if row % 2 == 0 else tables - 1 - col].append(entrant)
        groups = [tuple(t) for t in snake]
    return Round(number, tuple(Table(fmt, tuple(g)) for g in groups), byes)


def first_round(count: int, fmt: str) -> Round:
    problem = count_problem(count, fmt)
    if problem is not None:
        raise RuleError(f"{count} entrants cannot make a tournament of {fmt}: {problem}.")
    return seat(1, range(count), fmt)


def going_through(table: Table, totals: Sequence[int], rules: HouseRules) -> tuple[int, ...]:
    """The entrants of *table* that go through, by the places of "Who wins" on its game's
    *totals* (seat order; reversed scores and partnership as *rules* say), a tie broken by
    the seed."""
    place = places(totals, rules)
    seats = table.seats()
    side_place = {e: place[s] for s, (e, partner) in enumerate(seats) if partner == 0}
    if table.fmt == "pairings" and not table.final:
        return tuple(min(pair, key=lambda e: (side_place[e], e)) for pair in _pairings(table))
    ranked = sorted(side_place, key=lambda e: (side_place[e], e))
    return tuple(sorted(ranked[: table.through]))


def match_through(
    table: Table, games: Sequence[Sequence[int]], rules: HouseRules, best_of: int = 1
) -> tuple[int, ...] | None:
    """Who goes through from a match whose finished games ended with *games* (each its
    totals, in the order played); None while the match is not decided: no game yet, or under
    the best of three no pair with two wins yet (each game won as ``going_through`` says)."""
    if best_of == 1:
        return going_through(table, games[0], rules) if games else None
    wins = [going_through(table, totals, rules)[0] for totals in games]
    decided = [e for e in table.entrants if wins.count(e) * 2 > best_of]
    return (decided[0],) if decided else None


def best_of_problem(fmt: str, best_of: int) -> str | None:
    """Why a match cannot be the best of *best_of* in *fmt*: ``"unknown"``, ``"pairs_only"``."""
    if best_of not in BEST_OF:
        return "unknown"
    if best_of != 1 and fmt != "pairs":
        return "pairs_only"
    return None


def _pairings(table: Table) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b, c, d = table.entrants
    return ((a, b), (c, d))


def next_round(done: Round, through: Sequence[int]) -> Round | None:
    """The round after *done*, whose tables sent *through* on (and whose byes go on too);
    None when *done* was the final."""
    if any(t.final for t in done.tables):
        return None
    fmt = done.tables[0].fmt
    return seat(done.number + 1, list(done.byes) + list(through), fmt)


def play_out(
    count: int, fmt: str, result: Callable[[Round, Table], Sequence[int]], rules: HouseRules
) -> tuple[list[Round], int]:
    """Every round of a tournament of *count* entrants, each table's totals given by
    *result*; the rounds and the winner's seed."""
    rounds = [first_round(count, fmt)]
    while True:
        current = rounds[-1]
        through = [e for t in current.tables for e in going_through(t, result(current, t), rules)]
        following = next_round(current, through)
        if following is None:
            return rounds, through[0]
        rounds.append(following)


#: What cannot be in a bracket, as ``check`` finds it: an entrant entered twice or seated twice
#: in a round (``twice``), a seated entrant who did not go through (``not_through``), one who
#: went through and is not seated (``not_seated``), a round seated on a match with no result
#: (``undecided``), a round after the final (``after_final``), a table that does not seat its
#: entrants as the format says (``table``), a game's seat that names someone else than the
#: entrant the table seats there (``seat``).
PROBLEMS = ("twice", "not_through", "not_seated", "undecided", "after_final", "table", "seat")


@dataclass(frozen=True)
class Problem:
    """One thing that cannot be: its kind (``PROBLEMS``), the round, and the entrant (seed) or
    the table (its number in the round) it is about."""

    kind: str
    round: int
    entrant: int | None = None
    table: int | None = None


@dataclass(frozen=True)
class Seated:
    """A table as stored: the entrants it seats, who went through (() while undecided) and who
    sits at each of its games' seats (each game's four, as ``who`` names the entrants)."""

    table: Table
    through: tuple[int, ...] = ()
    seats: tuple[tuple[object, ...], ...] = ()


def check(
    count: int, fmt: str, rounds: Sequence[Sequence[Seated]], who: Sequence[tuple[object, ...]] = ()
) -> list[Problem]:
    """Everything about a stored bracket of *count* entrants of *fmt* that cannot be, from its
    *rounds* (each round's tables) and *who* each seed is (its player, or a pair's two): []
    when the bracket is sound. Total: any rounds, any tables, any seeds."""
    problems: list[Problem] = []
    first: dict[object, int] = {}
    for seed, players in enumerate(who):
        for player in players:
            if player in first:
                problems.append(Problem("twice", 1, entrant=seed))
            else:
                first[player] = seed
    try:
        byes = set(first_round(count, fmt).byes)
    except RuleError:
        byes = set()
    field = set(range(count))  # who is in the round, byes included
    expected = field - byes  # who sits at its tables
    undecided_before: set[int] = set()  # the entrants of the round before's undecided matches
    for number, tables in enumerate(rounds, start=1):
        seated: list[int] = []
        for index, s in enumerate(tables, start=1):
            sound = _sound(s.table, fmt, count, final=len(field) == (2 if fmt == "pairs" else 4))
            if not sound:
                problems.append(Problem("table", number, table=index))
            seated += [e for e in s.table.entrants if 0 <= e < count]
            if sound and len(who) == count and any(g != _named(s.table, who) for g in s.seats):
                problems.append(Problem("seat", number, table=index))
        twice = sorted({e for e in seated if seated.count(e) > 1})
        problems += [Problem("twice", number, entrant=e) for e in twice]
        wrong = sorted(set(seated) - expected - undecided_before)
        problems += [Problem("not_through", number, entrant=e) for e in wrong]
        if not undecided_before:
            missing = sorted(expected - set(seated))
            problems += [Problem("not_seated", number, entrant=e) for e in missing]
        undecided = [i for i, s in enumerate(tables, start=1) if not s.through]
        if number < len(rounds):
            problems += [Problem("undecided", number, table=i) for i in undecided]
            if any(s.table.final for s in tables):
                problems.append(Problem("after_final", number + 1))
                break
        undecided_before = {e for i in undecided for e in tables[i - 1].table.entrants}
        field = expected = (byes if number == 1 else set()) | {e for s in tables for e in s.through}
    return problems


def _sound(table: Table, fmt: str, count: int, *, final: bool) -> bool:
    """Does *table* seat entrants of the bracket as *fmt* does, final or not as the round is?"""
    return (
        table.fmt == fmt
        and len(table.entrants) == (2 if fmt == "pairs" else 4)
        and all(0 <= e < count for e in table.entrants)
        and table.final == final
    )


def _named(table: Table, who: Sequence[tuple[object, ...]]) -> tuple[object, ...]:
    """Who the table seats at seats 0 to 3, as *who* names each entrant's players."""
    return tuple(who[e][p] if p < len(who[e]) else None for e, p in table.seats())
