"""``scorekeeper backup`` writes a consistent copy while the server runs; ``scorekeeper restore``
brings one back, refusing anything that is not a sound scorekeeper database and refusing to
run under a live server."""

from __future__ import annotations

import json
import sqlite3
import stat
import threading
import time

import pytest

from scorekeeper import cli
from scorekeeper.store import storage
from scorekeeper.store.db import connect

from live_server import Server, TableRun, play_table, simulated, verify


def consistent(path) -> int:
    """Check that every game in the database at *path* agrees with itself: its summary and
    seats are the engine's score of its deals. Return the number of deals."""
    db = connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        total = 0
        for row in db.query("select id, totals_json, deal_count from games"):
            stored = storage.load_game(db, row["id"])
            totals = list(stored.game.score().totals)
            seats = [
                r["total"]
                for r in db.query(
                    "select total from game_players where game_id = ? order by seat", [row["id"]]
                )
            ]
            assert json.loads(row["totals_json"]) == seats == totals
            assert row["deal_count"] == len(stored.deals)
            total += len(stored.deals)
        return total
    finally:
        db.close()


def games_in(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("select count(*) from games").fetchone()[0]


@pytest.mark.slow
def test_backup_while_the_server_writes__then_restore(tmp_path, capsys):
    database, instance = tmp_path / "live.sqlite3", tmp_path / "instance"
    server = Server(database, instance).start()
    runs = [TableRun(seed, simulated(seed)) for seed in range(200, 204)]
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=play_table,
            args=(server.port, run),
            kwargs=dict(
                deals=12,
                deadline=time.monotonic() + 60,
                record=lambda *a: None,
                preview=False,
                stop=stop,
            ),
        )
        for run in runs
    ]
    try:
        for thread in threads:
            thread.start()
        copies = []
        for n in range(3):  # while the phones write
            time.sleep(0.3)
            copy = tmp_path / f"during-{n}.sqlite3"
            assert cli.main(["backup", "-o", str(copy), "--db", str(database)]) == 0
            copies.append(consistent(copy))
            assert stat.S_IMODE(copy.stat().st_mode) == 0o600
            assert not (tmp_path / f"during-{n}.sqlite3-wal").exists()
        for thread in threads:
            thread.join(timeout=60)
        assert [r.error for r in runs] == [None] * len(runs)
        assert copies[0] < sum(len(r.acknowledged) for r in runs)  # taken mid-stream
        final = tmp_path / "final.sqlite3"
        assert cli.main(["backup", "-o", str(final), "--db", str(database)]) == 0
        assert "Backed up 4 games" in capsys.readouterr().out
        assert verify(final, runs) == []  # every acknowledged deal is in the last copy

        refused = cli.main(["restore", str(final), "--db", str(database)])
        assert refused == 2
        assert "running on" in capsys.readouterr().err
    finally:
        stop.set()
        server.stop()

    # after the backup: another game, which the restore will take back out
    db = connect(database)
    from scorekeeper.engine import HouseRules

    storage.create_game(
        db,
        title="after",
        played_on=None,
        players=["W", "X", "Y", "Z"],
        rules=HouseRules(),
        first_king=0,
    )
    db.close()
    assert games_in(database) == 5
    assert cli.main(["restore", str(final), "--db", str(database)]) == 0
    out = capsys.readouterr().out
    assert "Restored 4 games" in out
    kept = next(tmp_path.glob("live.sqlite3.before-restore-*"))
    assert games_in(kept) == 5 and games_in(database) == 4
    assert verify(database, runs) == []
    again = Server(database, instance).start()  # and the server runs on it again
    try:
        from live_server import Phone

        phone = Phone(again.port)
        assert phone.request("page", "GET", f"/games/{runs[0].game_id}").status == 200
        phone.close()
    finally:
        again.stop()


@pytest.fixture
def database(app, table):
    game = table.new_game()
    table.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    return app.config["DATABASE"]


def digest(path) -> list:
    with sqlite3.connect(path) as conn:
        return conn.execute("select id, deal_count, totals_json from games").fetchall()


def damaged(tmp_path, database):
    copy = tmp_path / "damaged.sqlite3"
    assert cli.main(["backup", "-o", str(copy), "--db", database]) == 0
    data = bytearray(copy.read_bytes())
    page = 4096
    data[page * 3 : page * 3 + 200] = b"\xff" * 200  # a b-tree page of the database
    copy.write_bytes(bytes(data))
    return copy


def newer(tmp_path, database):
    copy = tmp_path / "newer.sqlite3"
    assert cli.main(["backup", "-o", str(copy), "--db", database]) == 0
    with sqlite3.connect(copy) as conn:
        conn.execute(
            "insert into _sqlite_migrations (migration_set, name, applied_at) "
            "values ('scorekeeper', 'm999_from_the_future', 'x')"
        )
    return copy


def other_app(tmp_path, database):
    copy = tmp_path / "other.sqlite3"
    with sqlite3.connect(copy) as conn:
        conn.execute("create table notes (text)")
    return copy


def not_sqlite(tmp_path, database):
    copy = tmp_path / "notes.txt"
    copy.write_text("a game of Trex\n" * 100)
    return copy


@pytest.mark.parametrize(
    "make, message",
    [
        (damaged, ""),
        (newer, "newer version"),
        (other_app, "not a scorekeeper database"),
        (not_sqlite, "not a scorekeeper database"),
        (lambda tmp_path, database: tmp_path / "missing.sqlite3", "There is no file"),
    ],
)
def test_restore__refuses_what_is_not_a_sound_backup(tmp_path, database, capsys, make, message):
    source = make(tmp_path, database)
    before = digest(database)
    assert cli.main(["restore", str(source), "--db", database]) == 2
    err = capsys.readouterr().err
    assert message in err and "Nothing was changed." in err
    assert digest(database) == before
    assert not list(tmp_path.glob("*.before-restore-*"))


def test_backup__clear_refusals(tmp_path, database, capsys):
    assert (
        cli.main(["backup", "-o", str(tmp_path / "x.db"), "--db", str(tmp_path / "none.db")]) == 2
    )
    assert "There is no database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
    assert cli.main(["backup", "-o", str(tmp_path / "no" / "x.db"), "--db", database]) == 2
    assert "no folder" in capsys.readouterr().err
    assert cli.main(["backup", "-o", database, "--db", database]) == 2
    assert not list(tmp_path.glob(".*partial"))


def test_backup_and_restore__round_trip_into_a_new_install(tmp_path, database, capsys):
    copy = tmp_path / "night.sqlite3"
    assert cli.main(["backup", "-o", str(copy), "--db", database]) == 0
    fresh = tmp_path / "elsewhere" / "scorekeeper.sqlite3"
    assert cli.main(["restore", str(copy), "--db", str(fresh)]) == 0
    assert digest(fresh) == digest(database)
    with sqlite3.connect(fresh) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert consistent(fresh) == 1


def test_links__print_the_games_links_and_set_its_pin(tmp_path, database, capsys):
    assert cli.main(["links", "1", "--db", database, "--pin", "2468"]) == 0
    out = capsys.readouterr().out
    with sqlite3.connect(database) as conn:
        edit, view, pin = conn.execute("select edit_key, view_key, pin_hash from games").fetchone()
    assert f"/e/{edit}" in out and f"/v/{view}" in out and "table PIN: set" in out
    assert pin and "2468" not in pin
    assert cli.main(["links", "1", "--db", database, "--pin", "12"]) == 2
    assert cli.main(["links", "1", "--db", database, "--no-pin"]) == 0
    assert "table PIN: none" in capsys.readouterr().out
    assert cli.main(["links", "7", "--db", database]) == 1


def test_serve__does_not_start_on_a_database_being_restored(tmp_path, monkeypatch, capsys):
    from scorekeeper.store import backup

    database = tmp_path / "night.sqlite3"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    served = []
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped", lambda app, **kwargs: served.append(app)
    )
    with backup._restore_lock(database):
        assert cli.main(["serve", "--db", str(database)]) == 1
    assert "A restore is running" in capsys.readouterr().err and served == []
    assert cli.main(["serve", "--db", str(database)]) == 0 and len(served) == 1


def test_backup_into_a_folder_keeps_the_newest_and_drops_the_oldest(tmp_path, capsys):
    from datetime import datetime, timezone

    from scorekeeper.store.backup import backup_into

    database = tmp_path / "db.sqlite3"
    migrate_new(database)
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")  # another file: never touched
    made = [
        backup_into(
            database, folder, keep=3, now=datetime(2026, 11, day, 4, 30, tzinfo=timezone.utc)
        )[0]
        for day in range(1, 6)
    ]
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["notes.txt"] + [p.name for p in made[-3:]]
    assert made[-1].name == "scorekeeper-20261105-043000.sqlite3"
    assert made[-1].stat().st_mode & 0o777 == 0o600
    fresh, _, _ = backup_into(database, tmp_path / "new" / "folder", keep=1)
    assert fresh.parent.stat().st_mode & 0o777 == 0o700  # made for the backups: owner only


def test_backup_command_into_a_folder_and_its_mistakes(tmp_path, capsys):
    database = str(tmp_path / "db.sqlite3")
    migrate_new(database)
    folder = tmp_path / "nightly"
    for _ in range(2):
        assert cli.main(["backup", "--into", str(folder), "--keep", "1", "--db", database]) == 0
    out = capsys.readouterr().out
    assert "Backed up 0 games to" in out
    assert len(list(folder.glob("scorekeeper-*.sqlite3"))) == 1
    assert cli.main(["backup", "--keep", "2", "-o", str(tmp_path / "x"), "--db", database]) == 2
    assert "--keep goes with --into" in capsys.readouterr().err
    assert cli.main(["backup", "--into", str(folder), "--keep", "0", "--db", database]) == 2
    assert "--keep must be at least 1" in capsys.readouterr().err


def migrate_new(path) -> None:
    from scorekeeper.store import open_database

    open_database(path).close()
