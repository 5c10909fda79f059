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
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

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


def rebuild(db: Database) -> None:
    """Every row of both tables again from the facts and the seats (the backfill's; call
    inside its transaction)."""
    db.execute(f"delete from {TABLE}")
    db.execute(f"insert into {TABLE} ({', '.join(KEY + SUMS)}) {_FROM_FACTS}")
    db.execute(f"delete from {NIGHTS}")
    db.execute(f"insert into {NIGHTS} ({', '.join(NIGHT_COLUMNS)}) {_NIGHTS_FROM_SEATS}")


def kept(db: Database) -> set[tuple[Any, ...]]:
    """Every row kept of both tables, each tagged with its table's name."""
    return {(TABLE, *r) for r in db.execute(f"select {', '.join(KEY + SUMS)} from {TABLE}")} | {
        (NIGHTS, *r) for r in db.execute(f"select {', '.join(NIGHT_COLUMNS)} from {NIGHTS}")
    }


def recomputed(db: Database) -> set[tuple[Any, ...]]:
    """The rows the facts and the seats make now, from scratch: what :func:`kept` must equal."""
    return {(TABLE, *r) for r in db.execute(_FROM_FACTS)} | {
        (NIGHTS, *r) for r in db.execute(_NIGHTS_FROM_SEATS)
    }


def by_contract(db: Database, pid: int, where: str, params: list[Any]) -> list[dict[str, Any]]:
    """The player's sums for each contract and King or not, over the nights *where* (on
    ``n``'s ``night`` and ``preset``) keeps."""
    sums = ", ".join(f"sum(n.{name}) as {name}" for name in SUMS)
    return list(
        db.query(
            f"select n.contract, n.is_king, {sums} from {TABLE} n "
            f"where n.player_id = ? and {where} group by n.contract, n.is_king",
            [pid, *params],
        )
    )
