"""Issue 27, item 5: ``store/db.py`` overrides three methods of sqlite-utils' ``Database``
(``table``, ``query``, ``atomic``) and reads its private ``_tracer``; this checks that the
pinned sqlite-utils (``deploy/constraints.txt``) still has what the override expects, with the
signatures it expects, and that the override behaves as the methods it replaces."""

from __future__ import annotations

import importlib.metadata
import inspect
import sqlite3
from pathlib import Path

import pytest
from sqlite_utils.db import Database, Table

from scorekeeper.store.db import WritingDatabase, connect

CONSTRAINTS = Path(__file__).resolve().parents[2] / "deploy" / "constraints.txt"


def pinned(name: str) -> str:
    for line in CONSTRAINTS.read_text().splitlines():
        if line.lower().startswith(name + "=="):
            return line.partition("==")[2]
    raise AssertionError(f"{name} is not pinned")


def test_item5_the_sqlite_utils_tested_is_the_pinned_one():
    assert importlib.metadata.version("sqlite-utils") == pinned("sqlite-utils"), (
        "run these tests with the pinned sqlite-utils, or pin the one they pass with"
    )


def parameters(function) -> list[tuple[str, object]]:
    return [(p.name, p.default) for p in inspect.signature(function).parameters.values()]


def test_item5_the_overridden_methods_keep_the_signatures_the_override_expects():
    empty = inspect.Parameter.empty
    assert parameters(Database.table)[:2] == [("self", empty), ("table_name", empty)]
    assert inspect.signature(Database.table).parameters["kwargs"].kind is (
        inspect.Parameter.VAR_KEYWORD
    )
    assert parameters(Database.query) == [("self", empty), ("sql", empty), ("params", None)]
    assert parameters(Database.atomic) == [("self", empty)]
    assert parameters(Database.rollback) == [("self", empty)]
    assert "strict" in inspect.signature(Table.__init__).parameters
    from sqlite_utils.utils import dedupe_keys

    assert list(dedupe_keys(["a", "a", "b"])) == ["a", "a_2", "b"]
    for name in ("table", "query", "atomic"):  # each override is one of Database's methods
        assert getattr(WritingDatabase, name) is not getattr(Database, name)


def test_item5_the_private_attributes_read_are_still_there(tmp_path):
    traced = []
    db = Database(
        tmp_path / "plain.sqlite3", tracer=lambda sql, params: traced.append(sql), strict=True
    )
    assert db._tracer is not None and db.strict is True and isinstance(db.conn, sqlite3.Connection)


@pytest.fixture
def both(tmp_path):
    """The same rows in a plain sqlite-utils database and in the app's."""
    plain = Database(tmp_path / "plain.sqlite3")
    ours = connect(tmp_path / "ours.sqlite3")
    for db in (plain, ours):
        db.execute("create table t (id integer primary key, name text, n integer)")
        db.table("t").insert_all(
            [{"id": 1, "name": "Aya", "n": 3}, {"id": 2, "name": "Lina", "n": 5}]
        )
    yield plain, ours
    plain.close()
    ours.close()


def test_item5_query_answers_as_sqlite_utils_does(both):
    plain, ours = both
    for sql, params in [
        ("select * from t order by id", None),
        ("select name, name from t where n > ?", [2]),
        ("  SELECT id AS x, n AS x FROM t WHERE name = :name", {"name": "Aya"}),
        ("with r as (select n from t) select sum(n) as s from r", None),
        ("pragma table_info(t)", None),
    ]:
        assert list(ours.query(sql, params)) == list(plain.query(sql, params)), sql


def test_item5_query_still_tells_the_tracer(tmp_path):
    traced = []
    db = WritingDatabase(
        tmp_path / "traced.sqlite3", tracer=lambda sql, params: traced.append((sql, params))
    )
    list(db.query("select ? as one", [1]))
    assert ("select ? as one", [1]) in traced


def test_item5_table_gives_the_table_sqlite_utils_would(both):
    plain, ours = both
    assert isinstance(ours.table("t"), Table)
    assert list(ours.table("t").rows) == list(plain.table("t").rows)
    assert ours.table("t").pks == plain.table("t").pks == ["id"]
    ours.table("t").upsert({"id": 2, "name": "Lina", "n": 6}, pk="id")
    assert ours.table("t").get(2)["n"] == 6


def test_item5_atomic_commits_whole_and_undoes_whole(both):
    _, ours = both
    with ours.atomic():
        ours.execute("update t set n = 10 where id = 1")
        with pytest.raises(ValueError):
            with ours.atomic():  # nested: a savepoint, undone alone
                ours.execute("update t set n = 99 where id = 2")
                raise ValueError("inner")
    assert [r["n"] for r in ours.query("select n from t order by id")] == [10, 5]
    with pytest.raises(ValueError):
        with ours.atomic():
            ours.execute("update t set n = 0")
            raise ValueError("outer")
    assert [r["n"] for r in ours.query("select n from t order by id")] == [10, 5]
    assert not ours.conn.in_transaction


def test_item5_atomic_takes_the_write_lock_before_reading(tmp_path):
    """BEGIN IMMEDIATE: while one connection's atomic block is open, another's write waits
    (here: is refused at once, its busy timeout set to nothing)."""
    path = tmp_path / "lock.sqlite3"
    first = connect(path)
    first.execute("create table t (n integer)")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with first.atomic():
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("begin immediate")
        other.execute("begin immediate")  # free again once the block is over
        other.execute("rollback")
    finally:
        other.close()
        first.close()
