"""RULES.md "Who wins", as stored: each seat's place in ``game_players.rank`` follows the rule
book (the lowest total first under reverse_scores), so that wins, places and the leaderboard
count the right winner; and the backfill puts the places of games stored before right."""

from __future__ import annotations

from scorekeeper.engine import read_game
from scorekeeper.store import storage, transfer
from scorekeeper.store.backfill import up_to_date
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate
from test_rules_who_wins import reversed_game


def ranks(db, game_id: int) -> list[int]:
    return [
        r["rank"]
        for r in db.query(
            "select rank from game_players where game_id = ? order by seat", [game_id]
        )
    ]


def test_who_wins_reverse_scores_stored_places_put_the_lowest_total_first(tmp_path):
    db = connect(tmp_path / "g.sqlite3")
    migrate(db)
    [game_id] = transfer.import_games(db, [read_game(reversed_game())]).ids
    assert ranks(db, game_id) == [1, 3, 4, 2]  # totals -110, 35, 60, 15
    wins = {
        r["name"]: r["wins"]
        for r in db.query(
            "select p.name, sum(gp.rank = 1) as wins from game_players gp "
            "join players p on p.id = gp.player_id group by p.name"
        )
    }
    assert wins == {"Aya": 1, "Bilal": 0, "Carla": 0, "Dana": 0}


def test_who_wins_backfill_sets_the_places_of_games_stored_before(tmp_path):
    db = connect(tmp_path / "old.sqlite3")
    up_to_date(db)
    [game_id] = transfer.import_games(db, [read_game(reversed_game())]).ids
    db.execute("pragma user_version = 0")  # as a database no backfill has read
    # As the old code stored it: the highest total first, whatever the rules.
    db.execute(
        "update game_players set rank = case seat when 0 then 4 when 1 then 2 "
        "when 2 then 1 else 3 end where game_id = ?",
        [game_id],
    )
    before = next(db.query("select updated_at, deal_count from games where id = ?", [game_id]))
    deals = list(db.query("select record_json, version from deals order by id"))
    db.conn.commit()
    up_to_date(db)
    assert ranks(db, game_id) == [1, 3, 4, 2]
    assert (
        next(db.query("select updated_at, deal_count from games where id = ?", [game_id])) == before
    )
    assert list(db.query("select record_json, version from deals order by id")) == deals
    assert storage.load_game(db, game_id).game.score().winners == (0,)
