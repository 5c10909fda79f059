"""Issue 38 item 1 in the store: every version of every deal has a key of its own, never given
twice, and a new deal never takes an undone one's id; the keys survive a backup and a restore,
an import draws new ones, and the migration gives every stored deal one."""

from __future__ import annotations

import pytest

from scorekeeper.engine import HouseRules
from scorekeeper.store import backup, confirming, storage, transfer
from scorekeeper.store.confirmations import Phone
from scorekeeper.store.db import connect
from scorekeeper.store.keys import KEY
from scorekeeper.store.schema import migrate, migrations

PLAYERS = ["Aya", "Bilal", "Carla", "Dana"]
KH = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}}
KH_OTHER = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 2}}
DIAMONDS = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}


def new_game(db, confirm: bool = False) -> int:
    return storage.create_game(
        db,
        title="Night",
        played_on="2026-11-20",
        players=PLAYERS,
        rules=HouseRules(),
        first_king=0,
        confirm=confirm,
    )


def rows(db, game_id: int) -> list[dict]:
    return list(
        db.query(
            "select id, number, version, version_key from deals where game_id = ? order by number",
            [game_id],
        )
    )


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "versions.sqlite3")
    migrate(database)
    yield database
    database.close()


def test_issue38_1__every_version_has_a_key_of_its_own(db):
    game = new_game(db)
    storage.add_deal(db, game, KH, token="a" * 22, number=1)
    [first] = rows(db, game)
    assert KEY.fullmatch(first["version_key"])
    storage.correct_deal(db, game, 1, KH_OTHER, token="b" * 22, version=1, key=first["version_key"])
    [second] = rows(db, game)
    assert second["version"] == 2 and second["version_key"] != first["version_key"]
    keys = [h["version_key"] for h in storage.history(db, game)]
    assert keys == [first["version_key"], second["version_key"]]
    with pytest.raises(storage.Conflict):  # the first version's key names it no more
        storage.correct_deal(db, game, 1, KH, token="c" * 22, version=2, key=first["version_key"])


def test_issue38_1__the_deal_entered_after_an_undo_gets_a_new_id_and_key(db):
    game = new_game(db, confirm=True)
    storage.add_deal(db, game, KH, token="a" * 22, number=1)
    storage.add_deal(db, game, DIAMONDS, token="b" * 22, number=2)
    undone = rows(db, game)[1]
    storage.undo_deal(db, game, undone["id"], version=1, key=undone["version_key"])
    assert storage.undone_version(db, game, undone["id"], undone["version_key"])
    storage.add_deal(db, game, DIAMONDS, token="c" * 22, number=2)
    # the same undo sent again now is stale: deal 2 is another deal
    assert not storage.undone_version(db, game, undone["id"], undone["version_key"])
    again = rows(db, game)[1]
    assert again["id"] > undone["id"] and again["version_key"] != undone["version_key"]
    assert (again["number"], again["version"]) == (undone["number"], undone["version"])
    other = Phone("f" * 32)
    for key in (undone["version_key"], None):  # the kept tap, and one naming no key at all
        with pytest.raises(storage.Conflict):
            confirming.confirm(
                db, game, 2, version=1, deal_id=undone["id"], by=other, key=key or "x"
            )
        with pytest.raises(storage.Conflict):
            storage.correct_deal(
                db,
                game,
                2,
                KH_OTHER,
                token="d" * 22,
                version=1,
                deal_id=undone["id"],
                key=key or "",
            )
    assert rows(db, game)[1] == again


def test_issue38_1__confirm_all_is_all_or_none(db):
    game = new_game(db, confirm=True)
    storage.add_deal(db, game, KH, token="a" * 22, number=1)
    storage.add_deal(db, game, DIAMONDS, token="b" * 22, number=2)
    one, two = rows(db, game)
    other = Phone("f" * 32)
    seen = [(1, 1, one["id"], one["version_key"]), (2, 1, two["id"], "0" * 32)]
    with pytest.raises(storage.Conflict):
        confirming.confirm_all(db, game, seen, by=other)
    assert [r["number"] for r in db.query("select number from deals where confirmed_at is null")]
    assert (
        db.execute("select count(*) from deals where confirmed_at is not null").fetchone()[0] == 0
    )
    seen[1] = (2, 1, two["id"], two["version_key"])
    assert confirming.confirm_all(db, game, seen, by=other) == [1, 2]
    with pytest.raises(confirming.AlreadyConfirmed):
        confirming.confirm_all(db, game, seen, by=other)


def test_issue38_1__a_backup_and_a_restore_keep_the_keys_an_import_draws_new_ones(db, tmp_path):
    game = new_game(db)
    storage.add_deal(db, game, KH, token="a" * 22, number=1)
    storage.add_deal(db, game, DIAMONDS, token="b" * 22, number=2)
    before = rows(db, game)
    path = tmp_path / "versions.sqlite3"
    backup.backup_database(path, tmp_path / "copy.sqlite3")
    target = tmp_path / "restored.sqlite3"
    backup.restore_database(tmp_path / "copy.sqlite3", target)
    restored = connect(target)
    try:
        assert rows(restored, game) == before
    finally:
        restored.close()
    other = connect(tmp_path / "imported.sqlite3")
    try:
        migrate(other)
        document = "".join(transfer.iter_document(db, [game]))
        [imported] = transfer.import_text(other, document).ids
        fresh = rows(other, imported)
    finally:
        other.close()
    assert len(fresh) == 2 and all(KEY.fullmatch(r["version_key"]) for r in fresh)
    assert {r["version_key"] for r in fresh}.isdisjoint(r["version_key"] for r in before)


def test_issue38_1__the_migration_keys_every_stored_deal(db, tmp_path):
    game = new_game(db)
    storage.add_deal(db, game, KH, token="a" * 22, number=1)
    document = "".join(transfer.iter_document(db, [game]))
    old = connect(tmp_path / "old.sqlite3")
    try:
        migrations.apply(old, stop_before="m013_deal_version_keys")
        [stored] = transfer.import_text(old, document).ids  # as that version stored it
        old.conn.commit()
        migrate(old)
        [row] = rows(old, stored)
        [history] = storage.history(old, stored)
    finally:
        old.close()
    assert KEY.fullmatch(row["version_key"])
    assert history["version_key"] == row["version_key"]
