"""Facts about each seat in each contract of each played deal, stored for statistics by SQL.

Rebuilt for a game whenever its deals change, inside the same transaction as the change (storage
calls :func:`refresh_game` from its summary step), so the player pages and the leaderboard add up
rows instead of scoring every game on every request. The points are the engine's: each contract of
a deal scored alone by :func:`~scorekeeper.engine.scoring.contract_scores`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterator

from sqlite_utils import Database

from ..engine import PRESETS, Contract, DealRecord, Game, HouseRules
from ..engine.scoring import comeback, contract_scores

TABLE = "seat_contract_stats"
#: The columns of a fact row, as ``deal_facts`` names them.
FACT_COLUMNS = (
    "deal_number",
    "seat",
    "contract",
    "is_king",
    "combined",
    "points",
    "took_kh",
    "doubles_made",
    "doubles_passed",
    "doubles_back",
    "took_doubled",
    "trex_place",
)
INSERT_FACTS = (
    f"insert into {TABLE} (game_id, {', '.join(FACT_COLUMNS)}) "
    f"values ({', '.join('?' * (len(FACT_COLUMNS) + 1))})"
)


def preset_of(rules: HouseRules) -> str:
    """The preset these rules are (``standard``, ``complex``, ``partnership``) or ``custom``."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def fingerprint(game: Game) -> str:
    """A digest of what was played (not who): the same game imported twice has the same one."""
    doc = {
        "title": game.title,
        "played_on": game.played_on,
        "rules": game.rules.to_dict(),
        "first_king": game.first_king,
        "deals": [d.to_dict() for d in game.deals],
    }
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def deal_facts(deal: DealRecord, number: int, rules: HouseRules) -> Iterator[dict[str, Any]]:
    """One row per seat and contract of a played deal; nothing for thrown-in or swept deals."""
    for contract, scores in contract_scores(deal, rules).items():
        captures = []
        if contract is Contract.KING_OF_HEARTS and deal.king_of_hearts is not None:
            captures = [deal.king_of_hearts]
        elif contract is Contract.QUEENS and deal.queens is not None:
            captures = list(deal.queens)
        doubled = [c for c in captures if rules.doubling and c.doubled_by is not None]
        for seat in range(4):
            mine = [c for c in doubled if c.doubled_by == seat]
            yield {
                "deal_number": number,
                "seat": seat,
                "contract": contract.value,
                "is_king": int(deal.king == seat),
                "combined": int(len(deal.contracts) > 1),
                "points": scores[seat],
                "took_kh": (
                    int(deal.king_of_hearts.taker == seat)
                    if contract is Contract.KING_OF_HEARTS and deal.king_of_hearts
                    else None
                ),
                "doubles_made": len(mine) if captures else None,
                "doubles_passed": sum(1 for c in mine if c.taker != seat) if captures else None,
                "doubles_back": sum(1 for c in mine if c.taker == seat) if captures else None,
                "took_doubled": (
                    sum(1 for c in doubled if c.taker == seat and c.doubled_by != seat)
                    if captures
                    else None
                ),
                "trex_place": (
                    deal.trex_order.index(seat) + 1
                    if contract is Contract.TREX and deal.trex_order
                    else None
                ),
            }


def refresh_game(db: Database, game_id: int, game: Game) -> None:
    """Rewrite the game's facts and its filter columns; call inside the write's transaction."""
    db.execute(
        "update games set night = coalesce(played_on, substr(created_at, 1, 10)), preset = ?, "
        "partnership = ?, fingerprint = ? where id = ?",
        [preset_of(game.rules), int(game.rules.partnership), fingerprint(game), game_id],
    )
    db.execute(
        "update game_players set (night, preset, finished) = (select night, preset, finished "
        "from games where games.id = game_players.game_id) where game_id = ?",
        [game_id],
    )
    db.execute(f"delete from {TABLE} where game_id = ?", [game_id])
    rows = [
        (game_id, *(row[column] for column in FACT_COLUMNS))
        for number, deal in enumerate(game.deals, start=1)
        for row in deal_facts(deal, number, game.rules)
    ]
    if rows:  # plain SQL: sqlite-utils' insert_all inspects every value, a third of a save's time
        db.conn.executemany(INSERT_FACTS, rows)


def refresh_feats(db: Database, game_id: int, game: Game, deal_scores: Any) -> None:
    """What a season's hall of records reads of the game (store.seasons), rewritten with its
    facts: the biggest comeback of its winners (the engine's), and each seat's K♥ taken and
    Trex deals finished first, added up from the facts just written. The backfill fills them
    for the games stored before their columns were added."""
    points, deal = comeback(deal_scores, game.rules)
    db.execute(
        "update games set comeback = ?, comeback_deal = ? where id = ?",
        [points, deal or None, game_id],
    )
    db.execute(
        f"update game_players set "
        f"kh_taken = (select coalesce(sum(s.took_kh), 0) from {TABLE} s "
        f"where s.game_id = game_players.game_id and s.seat = game_players.seat), "
        f"trex_firsts = (select count(*) from {TABLE} s where s.game_id = game_players.game_id "
        f"and s.seat = game_players.seat and s.trex_place = 1) where game_id = ?",
        [game_id],
    )
