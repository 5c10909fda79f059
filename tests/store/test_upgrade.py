"""Upgrades that say what they do (issue 39, item 5), in the store: every pending migration of a
database in one transaction, a failed one leaving the database as it was, a database a newer
version wrote left alone, and a box's register brought up by migrations of its own."""

from __future__ import annotations

import sqlite3

import pytest

from scorekeeper.store.db import connect
from scorekeeper.store.groups import Host
from scorekeeper.store.schema import MigrationFailed, latest, migrate, migrations
from scorekeeper.store.upgrade import NewerDatabase, bring_up_to_date, upgrade_install

from upgrade_helpers import (
    break_m013,
    OLD_NAME,
    SINCE_0_1_0,
    applied,
    dump,
    old_database,
    old_register,
)


def names(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("select name from players order by id")]
    finally:
        conn.close()


def test_issue39_5__an_old_database_is_brought_up_to_date_with_the_names_applied(tmp_path):
    path = old_database(tmp_path / "old.sqlite3")
    assert bring_up_to_date(path) == SINCE_0_1_0
    assert applied(path) == [m.name for m in migrations._migrations]
    assert names(path) == ["Aya"]  # the backfill cleaned the stored name
    assert bring_up_to_date(path) == []  # again: nothing to apply


def test_issue39_5__a_failed_migration_leaves_the_database_as_it_was(tmp_path):
    path = old_database(tmp_path / "old.sqlite3")
    break_m013(path)  # what m018_deal_version_keys makes, there already
    before = dump(path)
    with pytest.raises(MigrationFailed) as failed:
        bring_up_to_date(path)
    assert failed.value.name == "m018_deal_version_keys"
    assert "m018_deal_version_keys" in str(failed.value) and "already exists" in str(failed.value)
    # the eight migrations before it, which went through, are undone with it: all or none
    assert dump(path) == before
    assert names(path) == [OLD_NAME]
    assert "m017_phone_states" not in applied(path)


def test_issue39_5__the_migrations_wait_for_a_writer_and_take_no_lock_when_none_is_pending(
    tmp_path,
):
    path = old_database(tmp_path / "old.sqlite3")
    db = connect(path)
    try:
        assert migrate(db) == SINCE_0_1_0
        writer = connect(path)
        try:
            with writer.atomic():  # another connection writing: nothing pending, no wait
                assert migrate(db) == []
        finally:
            writer.close()
    finally:
        db.close()


def test_issue39_5__a_database_a_newer_version_wrote_is_refused_and_left_as_it_was(tmp_path):
    path = old_database(tmp_path / "newer.sqlite3")
    conn = sqlite3.connect(path)
    conn.execute(
        "insert into _sqlite_migrations (migration_set, name, applied_at) "
        "values ('scorekeeper', 'm099_from_the_future', '2027-01-01')"
    )
    conn.commit()
    conn.close()
    before = dump(path)
    with pytest.raises(NewerDatabase, match="m099_from_the_future"):
        bring_up_to_date(path)
    assert dump(path) == before


def test_issue39_5__an_old_register_gets_its_migrations_and_keeps_its_groups(tmp_path):
    instance = tmp_path / "box"
    old_register(instance / "groups.sqlite3", [("abcdefghjk", "Friday table")])
    old_database(instance / "groups" / "abcdefghjk.sqlite3")
    done = upgrade_install(instance, groups=True)
    assert done.ok and (done.databases, done.groups, done.applied) == (2, 1, 1 + len(SINCE_0_1_0))
    assert applied(instance / "groups.sqlite3", "scorekeeper-register") == ["r001_register"]
    assert [g.name for g in Host(instance).groups()] == ["Friday table"]
    assert done.line("9.9.9") == (
        "Scorekeeper 9.9.9: 2 databases (the register and 1 group) up to date: "
        f"{1 + len(SINCE_0_1_0)} migrations applied, schema {latest()}."
    )


def test_issue39_5__a_new_register_is_made_by_its_migrations(tmp_path):
    host = Host(tmp_path / "box")
    host.create("Friday table")
    assert applied(host.register_path, "scorekeeper-register") == ["r001_register"]
    assert upgrade_install(host.instance, groups=True).applied == 0


def test_issue39_5__one_database_that_fails_is_said_and_the_others_are_brought_up(tmp_path):
    instance = tmp_path / "box"
    old_register(instance / "groups.sqlite3", [("abcdefghjk", "A"), ("mnpqrstuvw", "B")])
    good = old_database(instance / "groups" / "abcdefghjk.sqlite3")
    bad = instance / "groups" / "mnpqrstuvw.sqlite3"
    bad.write_bytes(b"not a database, whatever it was" * 100)
    done = upgrade_install(instance, groups=True)
    assert not done.ok
    assert applied(good) == [m.name for m in migrations._migrations]
    [problem] = done.problems()
    assert problem.startswith(f"{bad}: cannot be opened as a database")
    assert done.line("1.0.0").startswith("Scorekeeper 1.0.0: 2 of 3 databases (the register")
    assert done.line("1.0.0").endswith(", 1 failed.")
