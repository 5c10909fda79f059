"""Databases as an older version left them, for the upgrade tests (issue 39, item 5): a group's
file or a laptop's database at 0.1.0's schema with a player in it, and a register made before the
register had migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrations

#: The first migration after 0.1.0 (UPGRADING.md; 0.1.0 and 0.2.0 called it
#: ``m008_names_show_every_character``): a database stopped before it is 0.1.0's.
AFTER_0_1_0 = "m010_names_show_every_character"
#: The migrations a 0.1.0 database lacks.
SINCE_0_1_0 = [m.name for m in migrations._migrations][
    [m.name for m in migrations._migrations].index(AFTER_0_1_0) :
]


#: A player's name as 0.1.0 kept it, with a character that does not show (a zero-width
#: space), which the backfill takes out (``m008_names_show_every_character`` did, in 0.2.0).
OLD_NAME = "Aya\u200b"


def old_database(path: Path, *, stop_before: str = AFTER_0_1_0) -> Path:
    """A database at the schema of the version before *stop_before*, holding a player, with
    its migrations recorded by the names that version gave them (before the renumbering)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    db = connect(path)
    try:
        migrations.apply(db, stop_before=stop_before)
        with db.atomic():
            db.execute("insert into players (name, name_key) values (?, ?)", [OLD_NAME, "aya"])
            record_former_names(db)
    finally:
        db.close()
    return path


def record_former_names(db) -> None:
    """Record *db*'s migrations by the names 0.1.0 and 0.2.0 gave them, as they did."""
    for former, name in migrations.formerly.items():
        db.execute("update _sqlite_migrations set name = ? where name = ?", [former, name])


def break_m013(path: Path) -> None:
    """Make ``m018_deal_version_keys`` (0.2.0's ``m013_deal_version_keys``) fail on *path*:
    what it makes is there already."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(
            "create trigger deals_version_key_insert after insert on deals begin select 1; end"
        )
        conn.commit()
    finally:
        conn.close()


def applied(path: Path, migration_set: str = "scorekeeper") -> list[str]:
    """The migrations *path* records as applied, by their names now (a former name read as
    the new one)."""
    conn = sqlite3.connect(path)
    try:
        return [
            migrations.current_name(row[0])
            for row in conn.execute(
                "select name from _sqlite_migrations where migration_set = ? order by rowid",
                [migration_set],
            )
        ]
    finally:
        conn.close()


def dump(path: Path) -> list[str]:
    """The database's whole content and schema, as SQL."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def old_register(path: Path, groups: list[tuple[str, str]]) -> Path:
    """A register as versions before its migrations made it, listing *groups* (id, name)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.executescript(
            "create table groups (id text primary key, name text not null, lang text not null, "
            "created_at text not null);"
            "create table group_starts (client text not null, at real not null);"
            "create index group_starts_client on group_starts (client, at);"
            "create table host_keys (name text primary key, key text not null);"
        )
        conn.executemany(
            "insert into groups values (?, ?, 'en', '2026-11-26T20:00:00+00:00')", groups
        )
        conn.commit()
    finally:
        conn.close()
    return path


#: The two groups of ``old_box``.
ONE, TWO = "abcdefghjk", "mnpqrstuvw"


def old_box(instance: Path) -> list[Path]:
    """A box of many groups as 0.1.0 left it: its register and two groups' files."""
    old_register(instance / "groups.sqlite3", [(ONE, "Friday"), (TWO, "Café")])
    return [old_database(instance / "groups" / f"{g}.sqlite3") for g in (ONE, TWO)]


def older_copy(source, path: Path, *, stop_before: str) -> Path:
    """A database at the schema of the version before *stop_before*, holding the games of
    *source* (a database at today's schema): the rows of the tables that version had, in its
    columns, as it wrote them (today's writes need today's schema)."""
    db = connect(path)
    try:
        migrations.apply(db, stop_before=stop_before)
        with db.atomic():
            for name in ("players", "games", "game_players", "deals", "deal_history"):
                columns = [c.name for c in db.table(name).columns]
                rows = [{c: r[c] for c in columns} for r in source.table(name).rows]
                db.table(name).insert_all(rows)
    finally:
        db.close()
    return path
