"""A group's seasons: named ranges of nights (a month, a Ramadan, a year), their standings and
their hall of records, read by SQL from what storage keeps of each finished game.

Nothing here decides who won or scores a deal: places are the ones storage wrote from the
engine's "Who wins" (``game_players.rank``: under ``reverse_scores`` the lowest total is first,
partners share their team's place), a rating change is the ratings' own (``store.ratings``),
and each game's K♥ taken, Trex deals finished first and biggest comeback (the engine's
:func:`~scorekeeper.engine.scoring.comeback`) are kept with its summary by storage, in the
transaction of every write (``facts.refresh_feats``), so they always equal the engine's
reading of its deals (``tests/store/test_seasons.py`` works them out again from scratch). A season's
figures themselves are not kept: they are added up when asked, over the season's nights only,
the standings and the best night from each player's sums per night (``playsums``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from sqlite_utils import Database

from . import ratings, storage
from .clubnights import CHAMPION_RULE
from .refused import N_, N_plural, Refused

#: The longest name a season may have.
NAME_LIMIT = 60
#: The order games were played in (the ratings' order).
ORDER = ratings.ORDER
# Every query that starts from the games reads them off the nights' index (``indexed by``):
# left to itself, SQLite reads every finished game off the index of the finished flag, and a
# month's page of a long record then costs what the whole record costs.
#: Who may add and remove seasons (the pages check it): any phone that may start games.
WHO_MAY = N_(
    "Seasons belong to the whole group: only a phone that opened the group’s join link can "
    "add or remove one."
)
TIES = N_("A record shared goes to whoever set it first.")
__all__ = ["CHAMPION_RULE", "RECORDS", "TIES", "Record", "Season", "SeasonStat"]


@dataclass(frozen=True)
class Season:
    id: int
    name: str
    first_night: str
    last_night: str


@dataclass(frozen=True)
class Record:
    """A record of the hall: its figure, who set it (names, and under partnership both
    partners) and the game it links to (or, for the best night, the night)."""

    kind: str
    value: int
    players: tuple[str, ...]
    game_id: int | None
    night: str
    deal: int | None = None


@dataclass(frozen=True)
class SeasonStat:
    """A record of the hall, declared once (in :data:`RECORDS`): the season's page, its poster
    and the tests read the declaration, so a new record is one entry and its finder.

    *title* and *rule* are msgids; *shown* the msgids of its figure, one and many
    (``%(num)s``, and ``%(deal)s`` for the deal it was set after); *find* reads it from the
    finished games of a range of nights."""

    kind: str
    title: str
    rule: str
    shown: tuple[str, str]
    find: Callable[[Database, str, str], Record | None]


@dataclass
class Hall:
    """A season's hall of records: each record, or None when no finished game set one."""

    best_night: dict[str, Any] | None = None
    records: dict[str, Record | None] = field(default_factory=dict)


# -- the dates ------------------------------------------------------------------------------
def parse_day(value: str | None) -> str | None:
    """*value* as an ISO date (YYYY-MM-DD), or None when it is not one."""
    value = (value or "").strip()
    if len(value) != 10:
        return None
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        return None


def problems(name: str, first: str | None, last: str | None) -> dict[str, Refused]:
    """Why a season of *name* from *first* to *last* (as typed) cannot be kept, by field."""
    out: dict[str, Refused] = {}
    name = storage.clean_name(name or "")
    if not name:
        out["name"] = Refused(N_("A season needs a name."))
    elif len(name) > NAME_LIMIT:
        out["name"] = Refused(
            N_("A season’s name has at most %(limit)s characters."), limit=NAME_LIMIT
        )
    start, end = parse_day(first), parse_day(last)
    for key, typed, day in (("first_night", first, start), ("last_night", last, end)):
        if day is None:
            out[key] = Refused(
                N_("%(date)s is not a date: write it as 2026-03-01 (year, month, day)."),
                date=(typed or "").strip()[:20] or "–",
            )
    if start and end and end < start:
        out["last_night"] = Refused(N_("The season ends before it starts."))
    return out


def nights_between(db: Database, first: str, last: str) -> tuple[str, str] | None:
    """The first and last night a game was played between *first* and *last*, both included."""
    row = db.execute(
        "select min(night), max(night) from games where night between ? and ?", [first, last]
    ).fetchone()
    return None if row[0] is None else (row[0], row[1])


# -- the seasons ------------------------------------------------------------------------------
def create(db: Database, name: str, first: str, last: str, *, from_nights: bool = False) -> int:
    """Keep a season; *from_nights*: from the first to the last night played between the two
    dates. Raises ``Refused`` (the first problem) and keeps nothing on bad input."""
    found = problems(name, first, last)
    if found:
        raise next(iter(found.values()))
    start, end = parse_day(first), parse_day(last)
    assert start is not None and end is not None
    if from_nights:
        nights = nights_between(db, start, end)
        if nights is None:
            raise Refused(N_("No game was played between these dates."))
        start, end = nights
    with db.atomic():
        cursor = db.execute(
            "insert into seasons (name, first_night, last_night, created_at) values (?, ?, ?, ?)",
            [storage.clean_name(name), start, end, storage.now()],
        )
    return int(cursor.lastrowid or 0)


def get(db: Database, season_id: int) -> Season | None:
    row = db.execute(
        "select id, name, first_night, last_night from seasons where id = ?", [season_id]
    ).fetchone()
    return None if row is None else Season(*row)


def all_seasons(db: Database) -> list[Season]:
    """Every season, the latest first."""
    rows = db.execute(
        "select id, name, first_night, last_night from seasons "
        "order by last_night desc, first_night desc, id desc"
    ).fetchall()
    return [Season(*row) for row in rows]


def delete(db: Database, season_id: int) -> bool:
    with db.atomic():
        return db.execute("delete from seasons where id = ?", [season_id]).rowcount > 0


# -- the standings ------------------------------------------------------------------------------
def rating_changes(db: Database, first: str, last: str) -> dict[int, int]:
    """Each rated player's change of rating over the finished games of the range: the rating
    after their last game of it less the one before their first (empty with ratings off)."""
    if not ratings.enabled(db):
        return {}
    # each player's first and last night of the range, off their ratings kept per night
    # (``playsums``: m021), not every rating change of the range
    rows = db.execute(
        "select m.player_id, a.mu_before, a.sigma_before, b.mu_after, b.sigma_after "
        "from (select player_id, min(night) as first, max(night) as last "
        "from player_rating_nights where night between ? and ? group by player_id) m "
        "join player_rating_nights a on a.player_id = m.player_id and a.night = m.first "
        "join player_rating_nights b on b.player_id = m.player_id and b.night = m.last",
        [first, last],
    )
    return {
        pid: ratings.shown(mu1, sigma1) - ratings.shown(mu0, sigma0)
        for pid, mu0, sigma0, mu1, sigma1 in rows
    }


def standings(db: Database, first: str, last: str) -> list[dict[str, Any]]:
    """Every player of a finished game played from *first* to *last* (both included), best
    first by CHAMPION_RULE: games, wins (a first place by "Who wins"), places 1st to 4th,
    average place, points (the sum of their final totals) and the change of their rating."""
    # a row per player and night (``playsums``), not one per seat; over the whole record, a
    # row per player (their sums over every night)
    sums = "sum(n.games) as games, sum(n.p1) as p1, sum(n.p2) as p2, sum(n.p3) as p3, "
    sums += "sum(n.p4) as p4, sum(n.points) as points"
    table, where, params = "player_nights", "where n.night between ? and ?", [first, last]
    if whole(db, first, last):
        table, where, params = "player_totals", "", []
    rows = db.query(
        f"select p.id, p.name, {sums} from {table} n join players p on p.id = n.player_id "
        f"{where} group by n.player_id",
        params,
    )
    changes = rating_changes(db, first, last)
    out = []
    for r in rows:
        places = [r["p1"], r["p2"], r["p3"], r["p4"]]
        out.append(
            {
                "id": r["id"],
                "name": r["name"],
                "games": r["games"],
                "wins": r["p1"],
                "places": places,
                "average_place": sum((i + 1) * n for i, n in enumerate(places)) / r["games"],
                "points": r["points"],
                "rating_change": changes.get(r["id"]),
            }
        )
    out.sort(key=lambda r: (-r["wins"], r["average_place"], -r["points"], r["name"]))
    for place, row in enumerate(out, start=1):
        row["place"] = place
    return out


# -- the hall of records ------------------------------------------------------------------------
def _names(db: Database, game_id: int, seats: tuple[int, ...]) -> tuple[str, ...]:
    rows = db.execute(
        f"select p.name from game_players gp join players p on p.id = gp.player_id "
        f"where gp.game_id = ? and gp.seat in ({', '.join('?' * len(seats))}) order by gp.seat",
        [game_id, *seats],
    ).fetchall()
    return tuple(name for (name,) in rows)


def longest_run(db: Database, first: str, last: str) -> Record | None:
    """The most finished games of the range one player won one after another, in order of
    play; it links to the game that made it that long. Read off each player's runs kept per
    night (``playsums``: m021): the run a night starts with joins the one the night before
    ended with, a night won throughout carries it on."""
    rows = db.execute(
        "select n.player_id, n.night, n.games, n.lead, n.lead_game, n.trail, n.last_game, "
        "n.inner, n.inner_game from player_run_nights n "
        "where n.night between ? and ? order by n.player_id, n.night",
        [first, last],
    )
    best: list[tuple[int, int, str, int]] = []  # the longest runs: value, player, night, game
    top, current, player = 0, 0, None

    def reached(value: int, pid: int, night: str, game: int) -> None:
        nonlocal top, best
        if value > top:
            top, best = value, [(value, pid, night, game)]
        elif best[-1][1:] != (pid, night, game):
            best.append((value, pid, night, game))

    for pid, night, games, lead, lead_game, trail, last_game, inner, inner_game in rows:
        if pid != player:
            current, player = 0, pid
        # each run that ends (or stands, for now) on this night, in order of play; most are
        # shorter than the longest so far and are passed over at a comparison
        if lead == games:
            current += games
            if current >= top:
                reached(current, pid, night, last_game)
            continue
        if lead and current + lead >= top:
            reached(current + lead, pid, night, lead_game)
        if inner and inner >= top:
            reached(inner, pid, night, inner_game)
        current = trail
        if trail and trail >= top:
            reached(trail, pid, night, last_game)
    if not best:
        return None
    # a record shared goes to whoever set it first: the earliest game, in order of play
    games_of = [game for *_, game in best]
    order = {
        game: (night, created_at, game)
        for game, night, created_at in db.execute(
            f"select id, night, created_at from games where id in ({', '.join('?' * len(games_of))})",
            games_of,
        )
    }
    value, pid, night, game = min(best, key=lambda b: order[b[3]])
    name = db.execute("select name from players where id = ?", [pid]).fetchone()[0]
    return Record("run", value, (name,), game, night)


#: The index of the games, or of the seats, by each figure of a record, holding only the rows
#: that have some (m021): a season over most of the record reads its best rows first.
BY_FIGURE = {
    "g.comeback": "games g indexed by idx_games_comeback",
    "gp.kh_taken": "game_players gp indexed by idx_game_players_kh_taken",
    "gp.trex_firsts": "game_players gp indexed by idx_game_players_trex_firsts",
}


def whole(db: Database, first: str, last: str) -> bool:
    """Does the range hold every night of the record?"""
    start, end = db.execute("select min(night), max(night) from games").fetchone()
    return start is None or (first <= start and end <= last)


def wide(db: Database, first: str, last: str) -> bool:
    """Does the range hold at least a quarter of the days of the record (a year of a few
    years, the whole record)? Its best games are then found sooner from the best down than
    night by night."""
    start, end = db.execute("select min(night), max(night) from games").fetchone()
    if start is None:
        return False
    day = dt.date.fromisoformat
    inside = (day(min(last, end)) - day(max(first, start))).days + 1
    return inside * 4 >= (day(end) - day(start)).days + 1


def _top_game(
    db: Database, first: str, last: str, column: str, *, also: str = "", seat: bool = False
) -> tuple | None:
    """The finished game of the range with the most of *column* (the game's ``g.``, or with
    *seat* one seat's ``gp.``; the earlier game, then the lower seat, on a tie): its id, its
    night, the seat, the figure and the columns *also* names."""
    seats, by_seat = (
        ("join game_players gp on gp.game_id = g.id ", ", gp.seat") if seat else ("", "")
    )
    tables = f"games g indexed by idx_games_night {seats}"
    if wide(db, first, last):  # from the best figure down, the first of the range found
        tables = BY_FIGURE[column] + (" join games g on g.id = gp.game_id " if seat else " ")
    row = db.execute(
        f"select g.id, g.night{by_seat}, {column}{also} from {tables}"
        f"where g.night between ? and ? and g.finished = 1 and {column} > 0 "
        f"order by {column} desc, {ORDER}{by_seat} limit 1",
        [first, last],
    ).fetchone()
    return None if row is None else tuple(row)


def _most_in_a_game(db: Database, first: str, last: str, kind: str, column: str) -> Record | None:
    """The most of *column* (``kh_taken``, ``trex_firsts``) one seat had in one finished game."""
    row = _top_game(db, first, last, f"gp.{column}", seat=True)
    if row is None:
        return None
    game_id, night, seat, value = row
    return Record(kind, value, _names(db, game_id, (seat,)), game_id, night)


def biggest_comeback(db: Database, first: str, last: str) -> Record | None:
    """The most points the winners of a finished game trailed the leader by after a deal
    (``facts.refresh_feats`` keeps each game's, the engine's ``comeback``)."""
    row = _top_game(db, first, last, "g.comeback", also=", g.comeback_deal")
    if row is None:
        return None
    game_id, night, points, deal = row
    seats = tuple(
        seat
        for (seat,) in db.execute(
            "select seat from game_players where game_id = ? and rank = 1 order by seat",
            [game_id],
        )
    )
    return Record("comeback", points, _names(db, game_id, seats), game_id, night, deal)


def best_night(db: Database, first: str, last: str) -> dict[str, Any] | None:
    """The night one player won the most finished games on (fewer games played, then the
    earlier night, on a tie)."""
    # over most of the record, from the most wins down (the index of m021)
    nights = "player_nights n indexed by player_nights_by_wins" if wide(db, first, last) else ""
    row = db.execute(
        f"select p.name, n.night, n.p1 as wins, n.games from {nights or 'player_nights n'} "
        "join players p on p.id = n.player_id where n.night between ? and ? and n.p1 > 0 "
        "order by wins desc, n.games, n.night, p.name_key limit 1",
        [first, last],
    ).fetchone()
    if row is None:
        return None
    return {"name": row[0], "night": row[1], "wins": row[2], "games": row[3]}


def hall(db: Database, first: str, last: str) -> Hall:
    """The season's best night and hall of records."""
    return Hall(
        best_night=best_night(db, first, last),
        records={stat.kind: stat.find(db, first, last) for stat in RECORDS},
    )


#: The records of the hall, in the order its page and its poster list them.
RECORDS = (
    SeasonStat(
        "run",
        N_("Longest winning run"),
        N_("Longest winning run: the most finished games one player won one after another."),
        N_plural("%(num)s game in a row", "%(num)s games in a row"),
        longest_run,
    ),
    SeasonStat(
        "kings",
        N_("Most K♥ taken"),
        N_("Most K♥ taken: the most times one player took the King of Hearts in one game."),
        N_plural("%(num)s K♥ in one game", "%(num)s K♥ in one game"),
        partial(_most_in_a_game, kind="kings", column="kh_taken"),
    ),
    SeasonStat(
        "comeback",
        N_("Biggest comeback"),
        N_(
            "Biggest comeback: the most points the winners trailed the leader by after a deal "
            "of a game they went on to win."
        ),
        N_plural(
            "%(num)s point behind after deal %(deal)s", "%(num)s points behind after deal %(deal)s"
        ),
        biggest_comeback,
    ),
    SeasonStat(
        "trex",
        N_("Best Trex finisher"),
        N_("Best Trex finisher: the most Trex deals of one game that one player finished first."),
        N_plural("%(num)s Trex deal finished first", "%(num)s Trex deals finished first"),
        partial(_most_in_a_game, kind="trex", column="trex_firsts"),
    ),
)
