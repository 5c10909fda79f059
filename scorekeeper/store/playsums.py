"""How each player plays each contract, summed per night: the rows a player's page adds up.

``player_contract_nights`` holds, for each player, night, preset, contract and whether they
were King, the sums of the facts (``store.facts``) of their finished seats: deals, points, K♥
taken, doubles made, passed and taken back, doubled cards taken, and the Trex deals finished
1st to 4th. Migration m019's triggers keep it in the transaction of every write of a game's
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


def rebuild(db: Database) -> None:
    """Every row again from the facts (the backfill's; call inside its transaction)."""
    db.execute(f"delete from {TABLE}")
    db.execute(f"insert into {TABLE} ({', '.join(KEY + SUMS)}) {_FROM_FACTS}")


def kept(db: Database) -> set[tuple[Any, ...]]:
    """Every row kept, as tuples of KEY then SUMS."""
    return set(db.execute(f"select {', '.join(KEY + SUMS)} from {TABLE}").fetchall())


def recomputed(db: Database) -> set[tuple[Any, ...]]:
    """The rows the facts make now, from scratch: what :func:`kept` must equal."""
    return set(db.execute(_FROM_FACTS).fetchall())


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
