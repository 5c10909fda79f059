"""Issue 42 item 2: migrations change the schema and nothing else. What the store derives from
the games is made again by one backfill, after the last migration and once per version, so a
save never asks which migrations ran; the migrations have unique, increasing numbers, and a
database that recorded them by their former names is never migrated twice."""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

import pytest

from scorekeeper.engine import HouseRules
from scorekeeper.store import backfill, backup, storage
from scorekeeper.store.backfill import up_to_date
from scorekeeper.store.db import connect
from scorekeeper.store.schema import (
    MigrationFailed,
    migrations,
    newer_migrations,
    register_migrations,
)
from upgrade_helpers import SINCE_0_1_0, applied, dump, old_database

SCHEMA = Path(backfill.__file__).with_name("schema.py")
#: A database as 0.2.0 left it (its migrations recorded by their former names, three games, the
#: players' ratings), written by 0.2.0's own code and kept as SQL.
FIXTURE_0_2_0 = Path(__file__).with_name("fixtures") / "database-0.2.0.sql"
#: What the backfill makes, as the migrations of 0.2.0 made it.
DERIVED = {
    "games": "select * from games order by id",
    "game_players": "select * from game_players order by game_id, seat",
    "seat_contract_stats": "select * from seat_contract_stats order by game_id, seat, "
    "deal_number, contract",
    "ratings": "select * from ratings order by player_id",
    "rating_changes": "select * from rating_changes order by game_id, player_id",
    "players": "select * from players order by id",
}
PLAYERS = ["Aya", "Bilal", "Carla", "Dana"]
KH = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}}


#: The migrations added since 0.2.0: the only ones its databases run.
SINCE_0_2_0 = ["m019_player_contract_nights", "m020_group_version", "m021_looking_back_sums"]


def database_0_2_0(path: Path) -> Path:
    conn = sqlite3.connect(path)
    try:
        conn.executescript(FIXTURE_0_2_0.read_text(encoding="utf-8"))
    finally:
        conn.close()
    return path


def recorded(path: Path) -> list[str]:
    """The names *path*'s record holds, as written."""
    conn = sqlite3.connect(path)
    try:
        return [
            row[0]
            for row in conn.execute(
                "select name from _sqlite_migrations where migration_set = 'scorekeeper' "
                "order by rowid"
            )
        ]
    finally:
        conn.close()


def derived(db) -> dict[str, list[dict]]:
    """What the backfill makes, but the version tags (any rewrite of a game draws its tag)."""
    found = {table: list(db.query(sql)) for table, sql in DERIVED.items()}
    for row in found["games"]:
        row.pop("version_tag")
    return found


def test_issue42_2__the_schema_imports_nothing_of_the_store_nor_of_the_engine():
    tree = ast.parse(SCHEMA.read_text(encoding="utf-8"))
    imported = {
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    relative = [
        node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert not relative, "a migration calls the store's or the engine's code of today"
    assert imported <= {"__future__", "typing", "sqlite_utils"}, imported


def test_issue42_2__the_migrations_have_unique_increasing_numbers():
    for migration_set, letter in ((migrations, "m"), (register_migrations, "r")):
        names = [m.name for m in migration_set._migrations]
        numbers = []
        for name in names:
            found = re.fullmatch(rf"{letter}(\d{{3}})_[a-z0-9_]+", name)
            assert found, f"{name} is not named {letter}NNN_what_it_does"
            numbers.append(int(found.group(1)))
        assert numbers == list(range(1, len(names) + 1)), names
    former = set(migrations.formerly)
    assert not former & {m.name for m in migrations._migrations}, "a former name is taken again"
    assert set(migrations.formerly.values()) <= {m.name for m in migrations._migrations}


def test_issue42_2__a_database_of_0_2_0_is_not_migrated_again_and_keeps_its_derived_data(
    tmp_path,
):
    path = database_0_2_0(tmp_path / "old.sqlite3")
    before_record = recorded(path)
    assert "m005_install_keys" in before_record and "m013_deal_version_keys" in before_record
    # the migrations added since 0.2.0 (m019 on) are pending, and only they
    since = [m.name for m in migrations._migrations][len(before_record) :]
    assert since == SINCE_0_2_0
    db = connect(path)
    try:
        assert newer_migrations(db) == []
        assert [m.name for m in migrations.pending(db)] == since
        before = derived(db)
        assert before["rating_changes"] and before["seat_contract_stats"]
        assert backfill.version(db) == 0
        assert up_to_date(db) == since  # no migration runs twice
        assert backfill.version(db) == backfill.VERSION
        assert derived(db) == before  # today's code makes what 0.2.0's migrations made
        changes = db.conn.total_changes
        assert up_to_date(db) == [] and db.conn.total_changes == changes  # once per version
    finally:
        db.close()
    # the record keeps the names it was written with, and adds the new migrations after them
    assert recorded(path) == before_record + since
    assert backup.check_database(path) == 3


def test_issue42_2__a_backup_of_0_2_0_restores_and_is_not_backfilled_again(tmp_path):
    old = database_0_2_0(tmp_path / "old.sqlite3")
    target = tmp_path / "new" / "scorekeeper.sqlite3"
    restored = backup.restore_database(old, target)
    assert restored.games == 3 and restored.left_out == []
    db = connect(target)
    try:
        assert backfill.version(db) == backfill.VERSION and not backfill.behind(db)
        assert applied(target) == [m.name for m in migrations._migrations]
    finally:
        db.close()


@pytest.mark.parametrize("stop_before", ["m004_places_by_who_wins", "m009_members", *SINCE_0_1_0])
def test_issue42_2__a_database_recorded_by_former_names_gets_only_what_it_lacks(
    tmp_path, stop_before
):
    path = old_database(tmp_path / "old.sqlite3", stop_before=stop_before)
    names = [m.name for m in migrations._migrations]
    lacking = names[names.index(stop_before) :]
    db = connect(path)
    try:
        assert up_to_date(db) == lacking
    finally:
        db.close()
    assert applied(path) == names
    # what was recorded stays as written; what is new is recorded by its new name
    assert recorded(path)[len(names) - len(lacking) :] == lacking


def test_issue42_2__a_save_asks_nothing_of_the_schema(tmp_path):
    db = connect(tmp_path / "g.sqlite3")
    up_to_date(db)
    game = storage.create_game(
        db, title="Night", played_on="2026-12-04", players=PLAYERS, rules=HouseRules(), first_king=0
    )
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    try:
        storage.add_deal(db, game, KH, token="a" * 22, number=1)
    finally:
        db.conn.set_trace_callback(None)
        db.close()
    assert any("seat_contract_stats" in sql for sql in statements)  # the trace saw the save
    # (sqlite-utils' insert lists the tables, whatever ran: that asks for no table by name)
    asked = [
        sql
        for sql in statements
        if re.search(r"sqlite_master\b.*\bname\s*=|_sqlite_migrations|user_version", sql, re.I)
    ]
    assert asked == []


def test_issue42_2__the_backfill_runs_again_when_its_version_is_raised(tmp_path, monkeypatch):
    db = connect(tmp_path / "g.sqlite3")
    try:
        up_to_date(db)
        game = storage.create_game(
            db, title="N", played_on="2026-12-04", players=PLAYERS, rules=HouseRules(), first_king=0
        )
        storage.add_deal(db, game, KH, token="a" * 22, number=1)
        db.execute("update game_players set total = 999 where game_id = ?", [game])
        db.conn.commit()
        assert up_to_date(db) == []
        assert db.execute("select max(total) from game_players").fetchone()[0] == 999  # stays
        monkeypatch.setattr(backfill, "VERSION", backfill.VERSION + 1)
        assert backfill.behind(db)
        assert up_to_date(db) == []
        assert db.execute("select max(total) from game_players").fetchone()[0] == 0
        assert backfill.version(db) == backfill.VERSION
    finally:
        db.close()


def test_issue42_2__a_backfill_that_fails_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    old_database(tmp_path / "older.sqlite3")  # 0.1.0's: migrations and the backfill pending
    before = dump(tmp_path / "older.sqlite3")

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(backfill, "show_every_character", broken)
    db = connect(tmp_path / "older.sqlite3")
    try:
        with pytest.raises(sqlite3.OperationalError):
            up_to_date(db)
        assert backfill.version(db) == 0
    finally:
        db.close()
    assert dump(tmp_path / "older.sqlite3") == before  # the migrations are undone with it


def test_issue42_2__a_new_group_and_a_new_database_are_backfilled_from_the_start(tmp_path):
    from scorekeeper.store import open_database
    from scorekeeper.store.groups import Host

    db = open_database(tmp_path / "laptop.sqlite3")
    try:
        assert not backfill.behind(db) and backfill.version(db) == backfill.VERSION
    finally:
        db.close()
    host = Host(tmp_path / "box")
    group = host.create("Friday", "en")
    db = connect(host.path_of(group.id))
    try:
        assert not backfill.behind(db)
    finally:
        db.close()


def test_issue42_2__a_migration_that_fails_names_its_new_name(tmp_path):
    from upgrade_helpers import break_m013

    path = old_database(tmp_path / "old.sqlite3")
    break_m013(path)
    db = connect(path)
    try:
        with pytest.raises(MigrationFailed, match="m018_deal_version_keys"):
            up_to_date(db)
    finally:
        db.close()
