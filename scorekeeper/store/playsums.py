"""How each player plays each contract, summed per night: the rows a player's page adds up.

``player_contract_nights`` holds, for each player, night, preset, contract and whether they
were King, the sums of the facts (``store.facts``) of their finished seats: deals, points, K♥
taken, doubles made, passed and taken back, doubled cards taken, and the Trex deals finished
1st to 4th. ``player_nights`` holds each player's finished games, places and points per
night, what a season's standings and best night add up (``store.seasons``). Migration m019's triggers keep it in the transaction of every write of a game's
facts or of a seat (its player, night, preset, finished flag), whichever path writes them
(a deal, a correction, an undo, an import, a merge of players, a deletion); the backfill
rebuilds it from the facts (:func:`rebuild`). :func:`recomputed` reads the same sums from the
facts themselves: the tests hold the kept ones to it after any sequence of writes.

Migration m021 adds, kept the same way: each player's games against each other player per
night and preset (``player_pair_nights``: head-to-head and partners), the sums of the
per-night tables over every night (:data:`ROLLUPS`, kept from the per-night rows by their own
triggers), each player's rating before and after each night (``player_rating_nights``, made
once at the end while every game is rated again) and each night's winning runs
(``player_run_nights``).
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from .schema import RATING_NIGHTS_SQL, RUN_NIGHTS_SQL

TABLE = "player_contract_nights"
KEY = ("player_id", "night", "preset", "contract", "is_king")
SUMS = (
    "deals",
    "points",
    "took_kh",
    "made",
    "passed",
    "back",
    "took_doubled",
    "p1",
    "p2",
    "p3",
    "p4",
)
_FROM_FACTS = """select gp.player_id, gp.night, gp.preset, f.contract, f.is_king,
    count(*), sum(f.points), coalesce(sum(f.took_kh), 0), coalesce(sum(f.doubles_made), 0),
    coalesce(sum(f.doubles_passed), 0), coalesce(sum(f.doubles_back), 0),
    coalesce(sum(f.took_doubled), 0), sum(f.trex_place is 1), sum(f.trex_place is 2),
    sum(f.trex_place is 3), sum(f.trex_place is 4)
    from game_players gp join seat_contract_stats f on f.game_id = gp.game_id and f.seat = gp.seat
    where gp.finished = 1 and gp.night is not null and gp.preset is not null
    group by gp.player_id, gp.night, gp.preset, f.contract, f.is_king"""


#: Each player's finished games, places (``p4``: fourth or below) and points per night.
NIGHTS = "player_nights"
NIGHT_COLUMNS = ("player_id", "night", "games", "p1", "p2", "p3", "p4", "points")
_NIGHTS_FROM_SEATS = """select gp.player_id, gp.night, count(*), sum(gp.rank is 1),
    sum(gp.rank is 2), sum(gp.rank is 3), coalesce(sum(gp.rank >= 4), 0),
    coalesce(sum(gp.total), 0) from game_players gp
    where gp.finished = 1 and gp.night is not null group by gp.player_id, gp.night"""


#: Each player's games against each other player per night and preset (m021): head-to-head,
#: and the partnership games with them as partner.
PAIRS = "player_pair_nights"
PAIR_KEY = ("player_id", "night", "preset", "other_id")
PAIR_SUMS = (
    "games",
    "ahead",
    "behind",
    "level",
    "my_points",
    "their_points",
    "team_games",
    "team_won",
    "team_level",
    "team_points",
)
_PAIRS_FROM_SEATS = """select a.player_id, a.night, a.preset, b.player_id, count(*),
    coalesce(sum(a.rank < b.rank), 0), coalesce(sum(a.rank > b.rank), 0),
    coalesce(sum(a.rank = b.rank), 0), coalesce(sum(a.total), 0), coalesce(sum(b.total), 0),
    sum(g.partnership is 1 and b.seat = (a.seat + 2) % 4),
    sum(g.partnership is 1 and b.seat = (a.seat + 2) % 4
        and g.team_result is (case a.seat % 2 when 0 then '0+2' else '1+3' end)),
    sum(g.partnership is 1 and b.seat = (a.seat + 2) % 4 and g.team_result is 'tie'),
    sum(case when g.partnership is 1 and b.seat = (a.seat + 2) % 4
        then coalesce(a.total, 0) + coalesce(b.total, 0) else 0 end)
    from game_players a join game_players b on b.game_id = a.game_id and b.seat != a.seat
    join games g on g.id = a.game_id
    where a.finished = 1 and a.night is not null and a.preset is not null
    group by a.player_id, a.night, a.preset, b.player_id"""
#: The per-night tables' sums over every night (m021's triggers keep them from those rows):
#: (table, its per-night table, key, sums).
ROLLUPS = (
    ("player_pairs", PAIRS, ("player_id", "preset", "other_id"), PAIR_SUMS),
    ("player_rivals", PAIRS, ("player_id", "other_id"), PAIR_SUMS),
    ("player_contracts", TABLE, ("player_id", "preset", "contract", "is_king"), SUMS),
    ("player_totals", NIGHTS, ("player_id",), NIGHT_COLUMNS[2:]),
)
#: Each player's rating before and after each night, and winning runs of each night (m021).
RATING_NIGHTS = "player_rating_nights"
RATING_COLUMNS = ("player_id", "night", "mu_before", "sigma_before", "mu_after", "sigma_after")
RUN_NIGHTS = "player_run_nights"
RUN_COLUMNS = (
    "player_id",
    "night",
    "games",
    "lead",
    "lead_game",
    "trail",
    "last_game",
    "inner",
    "inner_game",
)
_ALL = {"players": "1 = 1", "nights": "1 = 1"}


def rebuild(db: Database) -> None:
    """Every row of the sums again from the facts, the seats and the ratings (the backfill's;
    call inside its transaction). The tables over every night follow their per-night rows
    (their triggers)."""
    for table in (TABLE, NIGHTS, PAIRS, *(rollup[0] for rollup in ROLLUPS)):
        db.execute(f"delete from {table}")
    db.execute(f"insert into {TABLE} ({', '.join(KEY + SUMS)}) {_FROM_FACTS}")
    db.execute(f"insert into {NIGHTS} ({', '.join(NIGHT_COLUMNS)}) {_NIGHTS_FROM_SEATS}")
    db.execute(f"insert into {PAIRS} ({', '.join(PAIR_KEY + PAIR_SUMS)}) {_PAIRS_FROM_SEATS}")
    remake_nights(db)


def remake_nights(db: Database) -> None:
    """The ratings and runs per night again, from the ratings and the seats."""
    remake_rating_nights(db)
    db.execute(f"delete from {RUN_NIGHTS}")
    db.execute(RUN_NIGHTS_SQL.format(**_ALL))


def remake_rating_nights(db: Database) -> None:
    """Each player's rating before and after each night again, from the rating changes."""
    db.execute(f"delete from {RATING_NIGHTS}")
    db.execute(RATING_NIGHTS_SQL.format(**_ALL))


def _rows(db: Database, table: str, columns: tuple[str, ...]) -> set[tuple[Any, ...]]:
    return {(table, *r) for r in db.execute(f"select {', '.join(columns)} from {table}")}


def kept(db: Database) -> set[tuple[Any, ...]]:
    """Every row kept of every table of sums, each tagged with its table's name."""
    out = _rows(db, TABLE, KEY + SUMS) | _rows(db, NIGHTS, NIGHT_COLUMNS)
    out |= _rows(db, PAIRS, PAIR_KEY + PAIR_SUMS)
    for table, _, key, sums in ROLLUPS:
        out |= _rows(db, table, key + sums)
    return out | _rows(db, RATING_NIGHTS, RATING_COLUMNS) | _rows(db, RUN_NIGHTS, RUN_COLUMNS)


def recomputed(db: Database) -> set[tuple[Any, ...]]:
    """The rows the facts, the seats and the ratings make now, from scratch: what
    :func:`kept` must equal."""
    out = {(TABLE, *r) for r in db.execute(_FROM_FACTS)} | {
        (NIGHTS, *r) for r in db.execute(_NIGHTS_FROM_SEATS)
    }
    out |= {(PAIRS, *r) for r in db.execute(_PAIRS_FROM_SEATS)}
    nightly_rows = {
        TABLE: (_FROM_FACTS, KEY + SUMS),
        NIGHTS: (_NIGHTS_FROM_SEATS, NIGHT_COLUMNS),
        PAIRS: (_PAIRS_FROM_SEATS, PAIR_KEY + PAIR_SUMS),
    }
    for table, nightly, key, sums in ROLLUPS:
        sql, columns = nightly_rows[nightly]
        totals: dict[tuple[Any, ...], list[Any]] = {}
        for row in db.execute(sql):
            named = dict(zip(columns, row))
            at = tuple(named[k] for k in key)
            summed = totals.setdefault(at, [0] * len(sums))
            for n, name in enumerate(sums):
                summed[n] += named[name]
        out |= {(table, *at, *summed) for at, summed in totals.items()}
    # the ratings and runs per night, made in a transaction undone at once
    db.execute("savepoint recomputed")
    try:
        remake_nights(db)
        out |= _rows(db, RATING_NIGHTS, RATING_COLUMNS) | _rows(db, RUN_NIGHTS, RUN_COLUMNS)
    finally:
        db.execute("rollback to recomputed")
        db.execute("release recomputed")
    return out


#: The contract sums over every night (m021), read when no date range is asked.
OVER_ALL = "player_contracts"


def by_contract(
    db: Database, pid: int, where: str, params: list[Any], *, table: str = TABLE
) -> list[dict[str, Any]]:
    """The player's sums for each contract and King or not, over the nights *where* (on
    ``n``'s ``night`` and ``preset``) keeps; *table* :data:`OVER_ALL` for every night (then
    *where* is on the preset only)."""
    sums = ", ".join(f"sum(n.{name}) as {name}" for name in SUMS)
    return list(
        db.query(
            f"select n.contract, n.is_king, {sums} from {table} n "
            f"where n.player_id = ? and {where} group by n.contract, n.is_king",
            [pid, *params],
        )
    )
