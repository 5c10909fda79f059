"""What keeps the pages quick must not change what they show: the games kept in memory, the
connection each server thread keeps, the write lock, the facts written by plain SQL and the
score cells written in Python."""

from __future__ import annotations

import json
import threading

import pytest
from flask import render_template_string

from scorekeeper.engine import HouseRules, InvalidResult, read_game
from scorekeeper.engine.simulate import simulate_game
from scorekeeper.store import facts, gamecache, storage
from scorekeeper.store.db import connect, write_lock
from scorekeeper.store.schema import migrate
from scorekeeper.web.access.database import get_db

PLAYERS = ["Aya", "Bilal", "Carla", "Dana"]
DIAMONDS = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}
KH = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}}


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "speed.sqlite3")
    migrate(database)
    yield database
    database.close()


def fresh_read(db, game_id):
    """The game read from the database without the kept games."""
    gamecache.games.clear()
    return storage.load_game(db, game_id).game


# -- the kept games ------------------------------------------------------------------------------
def test_cache__an_equal_document_gives_the_same_game_another_gives_another():
    cache = gamecache.GameCache(size=4)
    doc = simulate_game(3, HouseRules(), players=PLAYERS)
    first = cache.read(doc)
    again = cache.read(json.loads(json.dumps(doc)))
    assert again is first and again == read_game(doc)
    shorter = {**doc, "deals": doc["deals"][:-1]}
    assert cache.read(shorter) is not first and cache.read(shorter) == read_game(shorter)


def test_cache__an_empty_title_is_the_same_document_as_none():
    doc = storage.game_document("", None, PLAYERS, {}, 0, [DIAMONDS])
    without = {k: v for k, v in doc.items() if k != "title"}
    assert gamecache.document_key(doc) == gamecache.document_key(without)


def test_cache__a_refused_document_raises_every_time_and_is_not_kept():
    cache = gamecache.GameCache()
    bad = storage.game_document("", None, ["A", "A", "B", "C"], {}, 0)
    for _ in range(2):
        with pytest.raises(InvalidResult):
            cache.read(bad)
    assert len(cache) == 0


def test_cache__keeps_at_most_its_size_the_least_recently_used_going_first():
    cache = gamecache.GameCache(size=2)
    docs = [storage.game_document(f"Game {i}", None, PLAYERS, {}, 0) for i in range(3)]
    first = cache.read(docs[0])
    cache.read(docs[1])
    assert cache.read(docs[0]) is first  # used again: the second one is now the oldest
    cache.read(docs[2])
    assert len(cache) == 2 and cache.read(docs[0]) is first


@pytest.mark.parametrize("title", ["Night", ""])
def test_storage__the_game_kept_after_each_write_is_the_one_the_database_holds(db, title):
    game_id = storage.create_game(
        db, title=title, played_on=None, players=PLAYERS, rules=HouseRules(), first_king=0
    )
    storage.add_deal(db, game_id, DIAMONDS, token="a" * 22, number=1)
    storage.add_deal(db, game_id, KH, token="b" * 22, number=2)
    kept = storage.load_game(db, game_id).game
    assert kept == fresh_read(db, game_id) and len(kept.deals) == 2
    storage.correct_deal(
        db, game_id, 1, {**DIAMONDS, "diamonds": [1, 4, 4, 4]}, token="c" * 22, version=1
    )
    kept = storage.load_game(db, game_id).game
    assert kept == fresh_read(db, game_id) and kept.deals[0].diamonds == (1, 4, 4, 4)
    deal_id = storage.load_game(db, game_id).deals[0]["id"]
    storage.undo_deal(db, game_id, deal_id, version=2)
    kept = storage.load_game(db, game_id).game
    assert kept == fresh_read(db, game_id) and len(kept.deals) == 1


def test_storage__a_renamed_player_is_another_document(db):
    game_id = storage.create_game(
        db, title="", played_on=None, players=PLAYERS, rules=HouseRules(), first_king=0
    )
    assert storage.load_game(db, game_id).game.players[0] == "Aya"
    with db.atomic():
        db.execute("update players set name = 'Ayah' where name = 'Aya'")
    assert storage.load_game(db, game_id).game.players[0] == "Ayah"


# -- facts by plain SQL ----------------------------------------------------------------------
def test_facts__the_insert_names_every_column_a_fact_row_has(db):
    game = read_game(simulate_game(11, HouseRules(), players=PLAYERS))
    rows = [
        row
        for number, deal in enumerate(game.deals, start=1)
        for row in facts.deal_facts(deal, number, game.rules)
    ]
    assert rows and all(tuple(row) == facts.FACT_COLUMNS for row in rows)
    stored = {c for c in db.table(facts.TABLE).columns_dict}
    assert stored == {"game_id", *facts.FACT_COLUMNS}


# -- the connections ---------------------------------------------------------------------------
def test_connection__a_thread_keeps_its_connection_from_one_request_to_the_next(app):
    seen = []
    for _ in range(2):
        with app.test_request_context("/"):
            seen.append(get_db())
            app.do_teardown_appcontext()
    assert seen[0] is seen[1]
    assert next(seen[1].query("select count(*) as n from games"))["n"] == 0


def test_connection__a_transaction_left_open_is_rolled_back_after_the_request(app):
    with app.test_request_context("/"):
        db = get_db()
        db.conn.execute("BEGIN")
        db.conn.execute("insert into players (name, name_key, created_at) values ('X', 'x', '')")
        app.do_teardown_appcontext()
    assert not db.conn.in_transaction
    with app.test_request_context("/"):
        assert get_db().table("players").count == 0


def test_connection__another_thread_has_its_own(app):
    with app.test_request_context("/"):
        mine = get_db()
    theirs = []

    def request() -> None:
        with app.test_request_context("/"):
            theirs.append(get_db())

    worker = threading.Thread(target=request)
    worker.start()
    worker.join()
    assert theirs[0] is not mine


def test_write_lock__one_per_database_file(tmp_path):
    first, second = connect(tmp_path / "a.sqlite3"), connect(tmp_path / "a.sqlite3")
    other = connect(tmp_path / "b.sqlite3")
    try:
        assert first.write_lock is second.write_lock is write_lock(tmp_path / "a.sqlite3")
        assert other.write_lock is not first.write_lock
    finally:
        for db in (first, second, other):
            db.close()


def test_write_lock__held_for_the_transaction_and_given_back(tmp_path):
    db = connect(tmp_path / "a.sqlite3")
    try:
        with db.atomic():
            db.execute("create table t (x)")
            taken = []
            thread = threading.Thread(
                target=lambda: taken.append(db.write_lock.acquire(blocking=False))
            )
            thread.start()
            thread.join()
            assert taken == [False]
        assert db.write_lock.acquire(blocking=False)
        db.write_lock.release()
        with pytest.raises(ZeroDivisionError), db.atomic():
            db.execute("insert into t values (1)")
            1 / 0
        assert db.write_lock.acquire(blocking=False) and db.table("t").count == 0
        db.write_lock.release()
    finally:
        db.close()


# -- score cells -----------------------------------------------------------------------------
MACRO = """{% macro score(value) -%}
<span class="{{ 'neg' if value < 0 else 'pos' if value > 0 else '' }}">{{ value|signed }}</span>
{%- endmacro %}{% for v in values %}{{ score(v) }};{% endfor %}"""


def test_score_cells__what_the_template_macro_wrote(app):
    values = [-150, -1, 0, 1, 75, 2.5, -0.5]
    with app.test_request_context("/"):
        python = render_template_string(
            '{% from "_macros.html" import score %}{% for v in values %}{{ score(v) }};'
            "{% endfor %}",
            values=values,
        )
        assert python == render_template_string(MACRO, values=values)
        assert python.startswith('<span class="neg">\u2212150</span>;')


# -- the sqlite-utils checks left out -----------------------------------------------------------
def test_query__a_select_gives_its_rows_anything_else_goes_through_sqlite_utils(db):
    storage.create_game(
        db, title="", played_on=None, players=PLAYERS, rules=HouseRules(), first_king=0
    )
    assert [r["name"] for r in db.query("  SELECT name from players order by name")] == PLAYERS
    assert next(db.query("with n as (select 2 as x) select x from n"))["x"] == 2
    with pytest.raises(ValueError):
        db.query("update players set name = name")
    assert db.table("players").count == 4 and db.table("games").exists()


# -- the QR code -------------------------------------------------------------------------------
def test_qr__drawn_once_and_a_phone_that_has_it_gets_304(table, client):
    from scorekeeper.web.making.qrcodes import qr_svg

    game_id = table.new_game()
    first = client.get(f"/games/{game_id}/qr.svg")
    hits = qr_svg.cache_info().hits
    again = client.get(f"/games/{game_id}/qr.svg", headers={"If-None-Match": first.headers["ETag"]})
    assert qr_svg.cache_info().hits == hits + 1
    assert first.status_code == 200 and again.status_code == 304 and not again.data
    assert client.get(f"/games/{game_id}/qr.svg").data == first.data
