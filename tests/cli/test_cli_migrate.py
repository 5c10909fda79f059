"""``scorekeeper migrate`` (issue 39, item 5): every database of the install brought up to date,
one summary line; a database that cannot be is said, left as it was, and the status is 1."""

from __future__ import annotations


import pytest

import scorekeeper
from scorekeeper import cli
from scorekeeper.store.schema import latest, migrations

from upgrade_helpers import SINCE_0_1_0, TWO, applied, break_m013, dump, old_box, old_database

ALL = [m.name for m in migrations._migrations]


@pytest.fixture
def instance(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    for name in ("SCOREKEEPER_DB", "SCOREKEEPER_GROUPS"):
        monkeypatch.delenv(name, raising=False)
    return folder


def run(capsys, *args: str) -> tuple[int, list[str], list[str]]:
    code = cli.main(["migrate", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_issue39_5__migrate_brings_the_register_and_every_group_up_to_date_in_one_line(
    instance, capsys
):
    files = old_box(instance)
    code, out, err = run(capsys)
    assert (code, err) == (0, [])
    assert out == [
        f"Scorekeeper {scorekeeper.__version__}: 3 databases (the register and 2 groups) up "
        f"to date: {1 + 2 * len(SINCE_0_1_0)} migrations applied, schema {latest()}."
    ]
    assert [applied(f) for f in files] == [ALL, ALL]
    assert applied(instance / "groups.sqlite3", "scorekeeper-register") == ["r001_register"]
    code, out, _ = run(capsys)
    assert code == 0 and out == [
        f"Scorekeeper {scorekeeper.__version__}: 3 databases (the register and 2 groups) up "
        f"to date: no migration to apply, schema {latest()}."
    ]


def test_issue39_5__migrate_on_a_laptop_brings_its_one_database_up_to_date(instance, capsys):
    old_database(instance / "scorekeeper.sqlite3")
    code, out, _ = run(capsys)
    assert code == 0
    assert out == [
        f"Scorekeeper {scorekeeper.__version__}: 1 database up to date: "
        f"{len(SINCE_0_1_0)} migrations applied, schema {latest()}."
    ]
    assert applied(instance / "scorekeeper.sqlite3") == ALL
    assert not (instance / "groups.sqlite3").exists()  # a laptop is no box of many groups


def test_issue39_5__migrate_with_db_or_group_brings_that_one_alone(instance, tmp_path, capsys):
    files = old_box(instance)
    elsewhere = old_database(tmp_path / "elsewhere.sqlite3")
    code, out, _ = run(capsys, "--db", str(elsewhere))
    assert code == 0 and out[0].endswith(
        f"1 database up to date: {len(SINCE_0_1_0)} migrations applied, schema {latest()}."
    )
    code, out, _ = run(capsys, "--group", TWO)
    assert code == 0 and "1 database up to date" in out[0]
    assert [applied(f) for f in files] == [ALL[: -len(SINCE_0_1_0)], ALL]
    code, out, err = run(capsys, "--db", str(tmp_path / "missing.sqlite3"))
    assert code == 1 and "cannot be opened" in err[0]
    assert not (tmp_path / "missing.sqlite3").exists()  # never made by a migrate


def test_issue39_5__a_group_whose_migration_fails_is_said_left_as_it_was_and_exits_1(
    instance, capsys
):
    good, bad = old_box(instance)
    break_m013(bad)  # what m018_deal_version_keys makes, there already
    before = dump(bad)
    code, out, err = run(capsys)
    assert code == 1
    assert err == [
        f"{bad}: the migration m018_deal_version_keys failed: trigger "
        "deals_version_key_insert already exists"
    ]
    assert out == [
        f"Scorekeeper {scorekeeper.__version__}: 2 of 3 databases (the register and 2 groups) "
        f"up to date: {1 + len(SINCE_0_1_0)} migrations applied, schema {latest()}, 1 failed."
    ]
    assert dump(bad) == before
    assert applied(good) == ALL
