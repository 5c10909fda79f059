"""``scorekeeper restore`` brings back data, never schema (defect 5). Each hostile backup the
attack tried is a test: triggers (on the PIN tries, on the deals), a junk table (and the size
bound), other columns, missing columns; and values the engine refuses. A refusal is one line,
exit status 2, and the current database is untouched."""

from __future__ import annotations

import json
import sqlite3

import pytest

from scorekeeper import cli
from scorekeeper.store import backup as backup_module
from scorekeeper.store import keys
from scorekeeper.store.db import connect
from scorekeeper.web import create_app

from web_helpers import PLAYERS, Table, hidden_fields, soup

NEW_GAME = {
    **{f"player_{s}": n for s, n in enumerate(PLAYERS)},
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
    "pin": "4821",
}


@pytest.fixture
def database(app, table):
    """The install's database: a game with a PIN and two deals."""
    response = table.client.post("/games/new", data=NEW_GAME)
    assert response.status_code == 303
    table.enter(1, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    table.enter(1, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    return app.config["DATABASE"]


def copy_of(tmp_path, database, name="night.sqlite3", *sql: str):
    """A real backup of *database*, then changed by *sql*."""
    path = tmp_path / name
    assert cli.main(["backup", "-o", str(path), "--db", database]) == 0
    with sqlite3.connect(path) as conn:
        for statement in sql:
            conn.executescript(statement)
    return path


def digest(path) -> list:
    with sqlite3.connect(path) as conn:
        return [
            conn.execute(f"select * from {t} order by 1").fetchall()
            for t in ("games", "players", "game_players", "deals", "deal_history")
        ]


def restore(path, database, capsys):
    status = cli.main(["restore", str(path), "--db", database])
    return status, capsys.readouterr()


def refused(path, database, tmp_path, capsys, *expected: str) -> str:
    before = digest(database)
    status, out = restore(path, database, capsys)
    assert status == 2, out
    err = out.err.strip()
    assert "\n" not in err and "Traceback" not in err and err.endswith("Nothing was changed.")
    for part in expected:
        assert part in err, err
    assert digest(database) == before
    assert not list(tmp_path.glob("*.before-restore-*"))
    assert not list(tmp_path.glob(".*.restoring"))
    return err


def objects(path) -> set[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return set(conn.execute("select type, name from sqlite_master"))


def app_on(tmp_path, database):
    return create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": database,
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )


# -- triggers -------------------------------------------------------------------------------
@pytest.mark.slow
def test_hostile_backup__a_trigger_on_pin_attempts_stays_behind(tmp_path, database, capsys):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        """
        create trigger forget_tries after insert on pin_attempts
        begin delete from pin_attempts; end""",
    )
    status, out = restore(path, database, capsys)
    assert status == 0 and "trigger forget_tries" in out.out
    assert ("trigger", "forget_tries") not in objects(database)
    guesser = app_on(tmp_path, database).test_client()
    for _ in range(keys.PIN_TRIES):
        assert guesser.post("/games/1/unlock", data={"pin": "0000"}).status_code == 400
    assert guesser.post("/games/1/unlock", data={"pin": "4821"}).status_code == 429


def test_hostile_backup__a_trigger_on_deals_stays_behind(tmp_path, database, capsys):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        """
        create trigger rename_games after insert on deals
        begin update games set title = 'pwned'; end;
        create trigger on_update after update on deals
        begin update games set title = 'pwned'; end""",
    )
    status, out = restore(path, database, capsys)
    assert status == 0
    assert "trigger on_update" in out.out and "trigger rename_games" in out.out
    table = Table(app_on(tmp_path, database).test_client())
    table.client.post("/games/1/unlock", data={"pin": "4821"})
    table.enter(
        1,
        {
            "king": 0,
            "contracts": ["queens"],
            "queens": {s: {"taker": 1} for s in ("spades", "hearts", "diamonds", "clubs")},
        },
    )
    with sqlite3.connect(database) as conn:
        assert conn.execute("select title, deal_count from games").fetchone() == ("Friday", 3)
    triggers = {o for o in objects(database) if o[0] == "trigger"}
    assert triggers == own_triggers(tmp_path)
    assert not triggers & {("trigger", "rename_games"), ("trigger", "on_update")}


def own_triggers(tmp_path) -> set[tuple[str, str]]:
    """The triggers the schema's own migrations make (games_keys, the version tags')."""
    fresh = tmp_path / "fresh.sqlite3"
    connect(fresh).close()
    from scorekeeper.store.schema import migrate

    db = connect(fresh)
    try:
        migrate(db)
    finally:
        db.close()
    return {o for o in objects(fresh) if o[0] == "trigger"}


def test_hostile_backup__our_own_trigger_rewritten_is_not_ours(tmp_path, database, capsys):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        """
        drop trigger games_keys;
        create trigger games_keys after insert on games
        begin update games set edit_key = '00000000000000000000000000000000'; end""",
    )
    status, out = restore(path, database, capsys)
    assert status == 0 and "trigger games_keys" in out.out
    with sqlite3.connect(database) as conn:
        [sql] = conn.execute("select sql from sqlite_master where name = 'games_keys'").fetchone()
    assert "randomblob" in sql


# -- other tables, views, the size bound -----------------------------------------------------
def test_hostile_backup__a_junk_table_and_a_view_stay_behind(tmp_path, database, capsys):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        "create table junk (blob); create view everything as select * from games;",
        "insert into junk values (zeroblob(2000000));",
    )
    status, out = restore(path, database, capsys)
    assert status == 0 and "table junk" in out.out and "view everything" in out.out
    assert ("table", "junk") not in objects(database)
    assert ("view", "everything") not in objects(database)
    from pathlib import Path

    assert Path(database).stat().st_size < 1_000_000 < path.stat().st_size


def test_hostile_backup__a_file_past_the_size_bound_is_refused(
    tmp_path, database, capsys, monkeypatch
):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        "create table junk (blob);",
        "insert into junk values (zeroblob(3000000));",
    )
    monkeypatch.setattr(backup_module, "RESTORE_LIMIT", 2 * 1024 * 1024)
    refused(path, database, tmp_path, capsys, "more than a scorekeeper backup holds")


# -- columns ---------------------------------------------------------------------------------
def test_hostile_backup__wrong_columns(tmp_path, database, capsys):
    path = copy_of(
        tmp_path, database, "night.sqlite3", "alter table games rename column title to headline;"
    )
    refused(
        path,
        database,
        tmp_path,
        capsys,
        "games table has no title column",
        "columns headline it should not have",
    )


def test_hostile_backup__missing_columns(tmp_path, database, capsys):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        "drop index idx_deals_token; alter table deals drop column token;",
    )
    refused(path, database, tmp_path, capsys, "deals table has no token column")


def test_hostile_backup__a_missing_table(tmp_path, database, capsys):
    path = copy_of(tmp_path, database, "night.sqlite3", "drop table deal_history;")
    refused(path, database, tmp_path, capsys, "no deal_history table")


# -- values the engine refuses, and values it scores again --------------------------------------
@pytest.mark.parametrize(
    "sql, expected",
    [
        ("update games set first_king = 'x'", "holds str in first_king, not integer"),
        ("update games set first_king = 7", "game 1"),
        (
            'update deals set record_json = \'{"king": 0, "contracts": ["diamonds"], '
            '"diamonds": [4, 3, 3, 2]}\' where number = 1',
            "the counts add up to 12, not 13",
        ),
        ("update deals set number = 5 where number = 2", "not numbered 1 to 2"),
        ("update players set name = char(8238) where id = 2", "player 2 has a name that shows no"),
        ("update players set name = 'Aya' where id = 2", "two players are both called 'Aya'"),
        ("update games set pin_hash = 'plain:4821'", "not a PIN's hash"),
        ("update games set edit_key = 'x'", "edit or view key"),
        ("update games set extra_json = '[1, 2]'", "not an object"),
        ("update deal_history set scores_json = 'nope' where id = 1", "history row 1 is not JSON"),
        ("update deal_history set action = 'drop' where id = 1", "not a version of a deal"),
        ("update game_players set seat = 7 where seat = 3", "does not seat four players"),
        ("update games set title = x'ff'", "holds bytes in title, not text"),
        ("update games set title = cast(x'ff' as text)", "cannot be restored"),
    ],
)
def test_hostile_backup__values_checked_as_an_import(tmp_path, database, capsys, sql, expected):
    path = copy_of(tmp_path, database, "night.sqlite3", sql)
    refused(path, database, tmp_path, capsys, expected)


def test_restore__every_game_is_scored_again(tmp_path, database, capsys):
    path = copy_of(
        tmp_path,
        database,
        "night.sqlite3",
        "update games set totals_json = '[999, 0, 0, 0]', finished = 1;",
        "update game_players set total = 999;",
        "update deals set score_0 = 500;",
        "delete from seat_contract_stats;",
    )
    status, _ = restore(path, database, capsys)
    assert status == 0
    db = connect(database)
    [game] = db.query("select totals_json, finished from games")
    scores = [r["score_0"] for r in db.query("select score_0 from deals order by number")]
    facts = next(db.query("select count(*) as n from seat_contract_stats"))["n"]
    db.close()
    assert json.loads(game["totals_json"]) != [999, 0, 0, 0] and game["finished"] == 0
    assert 500 not in scores and facts > 0


def test_restore__an_older_versions_backup_is_brought_up_to_date(tmp_path, capsys):
    from gamebuilder import standard_game
    from scorekeeper.store import transfer
    from scorekeeper.store.schema import migrate
    from upgrade_helpers import older_copy

    today = connect(tmp_path / "today.sqlite3")
    migrate(today)
    transfer.import_text(today, json.dumps({**standard_game(), "title": "Old"}))
    old = older_copy(today, tmp_path / "old.sqlite3", stop_before="m003_access")
    today.close()
    conn = sqlite3.connect(old)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    target = tmp_path / "new" / "scorekeeper.sqlite3"
    status, out = restore(old, str(target), capsys)
    assert status == 0, out
    db = connect(target)
    [row] = db.query("select title, edit_key, view_key from games")
    db.close()
    assert row["title"] == "Old" and keys.KEY.fullmatch(row["edit_key"])


def test_restore__the_install_keeps_its_own_admin_and_join_links(tmp_path, database, capsys):
    path = copy_of(tmp_path, database, "night.sqlite3")
    db = connect(database)
    before = (keys.install_key(db, "admin"), keys.install_key(db, "join"))
    db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("update install_keys set key = '0123456789abcdef0123456789abcdef'")
    assert restore(path, database, capsys)[0] == 0
    db = connect(database)
    assert (keys.install_key(db, "admin"), keys.install_key(db, "join")) == before
    db.close()


def test_restore__a_phone_that_kept_score_still_does(tmp_path, app, client, database, capsys):
    path = copy_of(tmp_path, database, "night.sqlite3")
    assert restore(path, database, capsys)[0] == 0
    assert client.get("/games/1/deals/new").status_code == 200
    page = soup(client.get("/games/1/deals/1/undo"))
    assert hidden_fields(page)
