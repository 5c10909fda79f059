"""Storage: every deal write in one transaction, checked whole by the engine before it commits."""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine import HouseRules, InvalidResult
from scorekeeper.store import storage
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate

PLAYERS = ["Aya", "Bilal", "Carla", "Dana"]
DIAMONDS = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}
KH = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}}


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "storage.sqlite3")
    migrate(database)
    yield database
    database.close()


@pytest.fixture
def game_id(db):
    return storage.create_game(
        db, title="Night", played_on="2026-11-20", players=PLAYERS, rules=HouseRules(), first_king=0
    )


def count(db, table):
    return db.table(table).count


def test_create_game__players_once_each_and_a_summary(db, game_id):
    stored = storage.load_game(db, game_id)
    assert stored.game.players == tuple(PLAYERS)
    assert stored.row["finished"] == 0 and json.loads(stored.row["totals_json"]) == [0] * 4
    storage.create_game(
        db,
        title="",
        played_on=None,
        players=[" aya", "Bilal", "Nour", "Sami"],
        rules=HouseRules(combining="complex"),
        first_king=3,
    )
    assert count(db, "players") == 6
    assert storage.known_names(db)[:4] == ["Aya", "Bilal", "Nour", "Sami"]


def test_create_game__refused_by_the_engine(db):
    with pytest.raises(InvalidResult):
        storage.create_game(
            db,
            title="",
            played_on=None,
            players=["A", "A", "B", "C"],
            rules=HouseRules(),
            first_king=0,
        )
    assert count(db, "games") == 0 and count(db, "players") == 0


def test_add_deal__stores_record_scores_history_and_totals(db, game_id):
    assert storage.add_deal(db, game_id, DIAMONDS, token="t" * 22, number=1) == 1
    row = next(db.table("deals").rows)
    assert (row["number"], row["version"], row["contracts"]) == (1, 1, "diamonds")
    assert [row[f"score_{s}"] for s in range(4)] == [-40, -30, -30, -30]
    assert json.loads(row["record_json"]) == DIAMONDS
    assert [h["action"] for h in storage.history(db, game_id)] == ["create"]
    game = db.table("games").get(game_id)
    assert json.loads(game["totals_json"]) == [-40, -30, -30, -30] and game["deal_count"] == 1
    ranks = [
        r["rank"]
        for r in db.query(
            "select rank from game_players where game_id = ? order by seat", [game_id]
        )
    ]
    assert ranks == [4, 1, 1, 1]


def test_add_deal__same_token_twice_records_nothing(db, game_id):
    storage.add_deal(db, game_id, DIAMONDS, token="t" * 22, number=1)
    with pytest.raises(storage.DuplicateToken) as caught:
        storage.add_deal(db, game_id, KH, token="t" * 22, number=2)
    assert caught.value.saved["number"] == 1
    assert count(db, "deals") == 1 and count(db, "deal_history") == 1


def test_add_deal__refused_by_the_engine_rolls_back(db, game_id):
    bad = {**DIAMONDS, "diamonds": [4, 4, 4, 4]}
    before = db.table("games").get(game_id)["updated_at"]
    with pytest.raises(InvalidResult) as caught:
        storage.add_deal(db, game_id, bad, token="u" * 22, number=1)
    assert caught.value.problems[0].code == "counts_sum"
    assert count(db, "deals") == 0 and count(db, "deal_history") == 0
    assert db.table("games").get(game_id)["updated_at"] == before
    assert not db.conn.in_transaction


def test_add_deal__a_number_already_taken_is_a_conflict(db, game_id):
    storage.add_deal(db, game_id, DIAMONDS, token="a" * 22, number=1)
    with pytest.raises(storage.Conflict):
        storage.add_deal(db, game_id, KH, token="b" * 22, number=1)


def test_add_deal__unknown_game(db):
    with pytest.raises(storage.NotFound):
        storage.add_deal(db, 42, DIAMONDS, token="a" * 22, number=1)


def test_correct_deal__new_version_the_old_one_kept(db, game_id):
    storage.add_deal(db, game_id, DIAMONDS, token="a" * 22, number=1)
    corrected = {**DIAMONDS, "diamonds": [1, 4, 4, 4]}
    assert storage.correct_deal(db, game_id, 1, corrected, token="b" * 22, version=1) == 2
    stored = storage.load_game(db, game_id)
    assert stored.game.deals[0].diamonds == (1, 4, 4, 4)
    versions = storage.history(db, game_id, stored.deals[0]["id"])
    assert [(v["action"], v["version"], v["record"]["diamonds"]) for v in versions] == [
        ("create", 1, [4, 3, 3, 3]),
        ("correct", 2, [1, 4, 4, 4]),
    ]
    with pytest.raises(storage.Conflict):
        storage.correct_deal(db, game_id, 1, corrected, token="c" * 22, version=1)


def test_undo_deal__renumbers_and_keeps_history(db, game_id):
    storage.add_deal(db, game_id, DIAMONDS, token="a" * 22, number=1)
    storage.add_deal(db, game_id, KH, token="b" * 22, number=2)
    first = storage.load_game(db, game_id).deals[0]
    assert storage.undo_deal(db, game_id, first["id"], version=1) == 1
    stored = storage.load_game(db, game_id)
    assert [d["number"] for d in stored.deals] == [1]
    assert stored.game.deals[0].contracts[0].value == "king_of_hearts"
    with pytest.raises(storage.NotFound):
        storage.undo_deal(db, game_id, first["id"], version=1)
    assert [h["action"] for h in storage.history(db, game_id)] == ["create", "create", "undo"]
    assert storage.find_token(db, "a" * 22)["number"] is None


def test_list_games__in_progress_and_finished(db, game_id):
    games = storage.list_games(db, finished=False)
    assert [g["id"] for g in games] == [game_id] and games[0]["names"] == PLAYERS
    assert storage.list_games(db, finished=True) == []
