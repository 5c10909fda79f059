"""Backups of the database, taken while the server runs, and restoring one.

A backup goes through SQLite's online backup API: it copies the database as one snapshot, in
one read transaction, so a deal saved during the copy is either wholly in it or not at all, and
the server keeps writing meanwhile (WAL). The copy is checked and written to a temporary file
that takes the backup's name only once it is complete, readable by its owner alone (it holds the
games' edit keys).

A restore brings back data, never schema: it builds a new database through this version's
migrations and copies in the rows of the app's own tables, checked as an import is, every game
scored again by the engine; triggers, views and other tables of the file stay behind. It
refuses, in one line and changing nothing, a file that is not a sound scorekeeper backup, and
refuses to run while a server uses the database: ``scorekeeper serve`` holds a shared lock on a
file beside the database for as long as it runs, and a restore needs that lock alone (one
group of a box of many is restored while the box serves: ``restoring.py``). The database being
replaced is first backed up beside itself, so a restore never loses anything either.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Callable, Iterator

from sqlite_utils import Database

from ..engine import InvalidResult
from ..engine.errors import RulesError
from ..engine.gamefile import NAME_LIMIT, name_problem
from . import backfill, playsums, restorechecks
from .db import BUSY_TIMEOUT_SECONDS, WritingDatabase, connect
from .paths import KEPT_INFIX, LOCK_SUFFIX
from .schema import m010_names_show_every_character, migrate, migrations

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; restore then relies on the user stopping it
    fcntl = None  # type: ignore[assignment]

#: The tables every scorekeeper database has, whatever its version.
TABLES = {"players", "games", "game_players", "deals", "deal_history", "_sqlite_migrations"}


class BackupError(Exception):
    """The backup or the restore cannot be done; the message says why, for a person."""


# -- the serving lock ----------------------------------------------------------------------
def _lock_path(database: str | Path) -> Path:
    return Path(f"{database}{LOCK_SUFFIX}")


def _lock(database: str | Path, exclusive: bool) -> IO[str] | None:
    """Take the lock beside *database* without waiting; None when someone else holds it."""
    if fcntl is None:
        return None
    # owner only, as every file beside the database (create_private)
    fd = os.open(_lock_path(database), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    handle = open(fd, "a", encoding="ascii")
    try:
        fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise BackupError("locked") from None
    return handle


def serving_lock(database: str | Path) -> IO[str] | None:
    """The server's shared lock for as long as it runs (the system drops it if it is killed).

    Raises BackupError while a restore is running on that database.
    """
    try:
        return _lock(database, exclusive=False)
    except BackupError:
        raise BackupError(
            f"A restore is running on {database}; start the server again when it has finished."
        ) from None


@contextlib.contextmanager
def _restore_lock(database: Path) -> Iterator[None]:
    try:
        handle = _lock(database, exclusive=True)
    except BackupError:
        raise BackupError(
            f"The scorekeeper is running on {database}. Stop it (Ctrl+C) first, then restore."
        ) from None
    try:
        yield
    finally:
        if handle is not None:
            handle.close()


# -- checks --------------------------------------------------------------------------------
def _open_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS
    )


def check_database(path: Path) -> int:
    """Check that *path* is a sound scorekeeper database this version can read; return the
    number of games in it. Raises BackupError saying what is wrong."""
    if not path.is_file():
        raise BackupError(f"There is no file {path}.")
    try:
        conn = _open_read_only(path)
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot open {path}: {exc}.") from None
    try:
        try:
            verdict = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            tables = {
                row[0]
                for row in conn.execute("select name from sqlite_master where type = 'table'")
            }
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path} is not a scorekeeper database ({exc}).") from None
        if verdict != ["ok"]:
            raise BackupError(f"{path} is damaged: " + "; ".join(verdict[:5]))
        missing = TABLES - tables
        if missing:
            raise BackupError(
                f"{path} is not a scorekeeper database (it has no "
                f"{', '.join(sorted(missing))} table)."
            )
        applied = {
            migrations.current_name(row[0])
            for row in conn.execute(
                "select name from _sqlite_migrations where migration_set = ?", [migrations.name]
            )
        }
        unknown = applied - {m.name for m in migrations._migrations}
        if unknown:
            raise BackupError(
                f"{path} was written by a newer version of the scorekeeper "
                f"({', '.join(sorted(unknown))}); update it first."
            )
        return conn.execute("select count(*) from games").fetchone()[0]
    finally:
        conn.close()


# -- backup --------------------------------------------------------------------------------
def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy *source* into a new file *target*, whole, as one self-contained file."""
    dest = sqlite3.connect(str(target))
    try:
        source.backup(dest)  # every page in one step: one consistent snapshot
        dest.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
    finally:
        dest.close()


def backup_database(database: str | Path, out: str | Path) -> int:
    """Write a consistent copy of *database* to *out*; return the number of games in it."""
    database, out = Path(database), Path(out)
    if not database.is_file():
        raise BackupError(f"There is no database at {database}.")
    if not out.parent.is_dir():
        raise BackupError(f"Cannot write {out}: there is no folder {out.parent}.")
    if out.exists() and out.resolve() == database.resolve():
        raise BackupError("The backup must go to another file than the database.")
    fd, temp_name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent)
    os.close(fd)  # mkstemp made it readable by its owner alone; SQLite writes into it
    temp = Path(temp_name)
    try:
        source = sqlite3.connect(str(database), timeout=BUSY_TIMEOUT_SECONDS)
        try:
            _copy(source, temp)
        finally:
            source.close()
        count = check_database(temp)
        with open(temp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, out)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return count


# -- restore -------------------------------------------------------------------------------
#: The largest file a restore reads: a database of decades of weekly nights is tens of MB.
RESTORE_LIMIT = 256 * 1024 * 1024
#: The largest JSON a restored value may hold (a deal's record is under 2 KB; the unknown keys
#: a game keeps, under 64 KB); other text is held to ``restorechecks.SHORT_TEXT``.
TEXT_LIMIT = 1024 * 1024
#: The app's tables whose rows a restore brings back, parents first. Not copied: the facts (made
#: again from the deals), the PIN tries (minutes old), and the install's keys, its members and
#: its phones' state (the install being restored into keeps its own).
#: The tables every backup has, whatever its version...
ALWAYS = ("players", "games", "game_players", "deals", "deal_history")
#: ...and every table whose rows a restore copies, where the backup's version has it.
COPIED = (
    *ALWAYS,
    "settings",
    "club_nights",
    "club_night_players",
    "club_tables",
    "club_sitting_out",
    "seasons",
    "tournaments",
    "tournament_entrants",
    "tournament_tables",
)
#: What adopting a packed group (``store.moving``) copies besides, held to the same checks: the
#: group's own keys (its join and admin links), its members and its phones' state, which a
#: restore keeps from the install it restores into.
OWN = ("install_keys", "members", "phone_states")
#: Why a restored player's name cannot be kept, by the engine's name problem.
NAME_REASONS = {
    "player_name_empty": "has no name",
    "player_name_too_long": f"has a name longer than {NAME_LIMIT} characters",
    "player_name_control": "has a control character in their name",
    "player_name_invisible": "has a name that shows no letter or digit",
    "player_name_hidden": "has a character that does not show in their name",
    "player_name_marks": "has a name with more than three marks on one letter",
}
#: What a column's declared type lets a restored value be.
KINDS: dict[str, tuple[type, ...]] = {
    "INTEGER": (int,),
    "TEXT": (str,),
    "FLOAT": (float, int),
    "REAL": (float, int),
}


@dataclass
class Restored:
    """What a restore did: the games brought back, where the replaced database was kept, and
    what the file held that is not a scorekeeper's (left behind)."""

    games: int
    kept: Path | None
    left_out: list[str] = field(default_factory=list)


def restore_database(
    backup: str | Path, database: str | Path, *, settled: Callable[[], None] = lambda: None
) -> Restored:
    """Bring back the data of *backup* into *database*, never its schema.

    A new database is built through this version's migrations, and the rows of the app's own
    tables are copied into it, each value checked against its column, each name and each game
    checked by the engine as an import is, and every game scored again. Only then is the file
    copied over the database in one transaction, the replaced database kept beside it. Triggers, views and other
    tables of the file never come along. Raises BackupError (one line) and changes nothing
    when the file cannot be restored. *settled* is called once the file is built and checked,
    before anything of *database* is read (``restoring``: the wait for requests under way).
    """
    backup, database = Path(backup), Path(database)
    check_backup_file(backup)
    if database.exists() and database.resolve() == backup.resolve():
        raise BackupError("That file is the database itself.")
    database.parent.mkdir(parents=True, exist_ok=True)
    with _restore_lock(database):
        fd, temp_name = tempfile.mkstemp(
            prefix=f".{database.name}.", suffix=".restoring", dir=database.parent
        )
        os.close(fd)
        temp = Path(temp_name)
        try:
            left_out = _build(backup, temp, database, settled=settled)
            kept = None
            if database.exists() and database.stat().st_size > 0:
                stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
                kept = database.with_name(f"{database.name}{KEPT_INFIX}{stamp}")
                backup_database(database, kept)
            _swap_in(temp, database)
        finally:
            temp.unlink(missing_ok=True)
        count = up_to_date_games(database)
    return Restored(count, kept, left_out)


def up_to_date_games(database: Path) -> int:
    """What is derived from the games of a database just built, made (``backfill``); the
    number of its games."""
    db = connect(database)
    try:
        backfill.up_to_date(db)
        return db.execute("select count(*) from games").fetchone()[0]
    finally:
        db.close()


def build_whole(source: Path, out: Path) -> tuple[int, list[str]]:
    """A group's file built in the new file *out* from *source* with all of its rows, its own
    links' keys, members and phones' state included, every row held to restore's checks (a
    packed group adopted, a lost box's group recovered): its number of games, and what
    *source* held that was left out. BackupError (a line per problem) otherwise."""
    left_out = _build(source, out, out, COPIED + OWN)
    return up_to_date_games(out), left_out


def check_backup_file(backup: Path) -> None:
    """Refuse (BackupError) a file that cannot be a backup: missing, too big, not SQLite."""
    if not backup.is_file():
        raise BackupError(f"There is no file {backup}.")
    size = backup.stat().st_size
    if size > RESTORE_LIMIT:
        raise BackupError(
            f"{backup} is {size // (1024 * 1024)} MB, more than a scorekeeper "
            f"backup holds (at most {RESTORE_LIMIT // (1024 * 1024)} MB)."
        )
    with open(backup, "rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise BackupError(f"{backup} is not a scorekeeper database (not SQLite).")


def _keep_own_rows(db: Database, database: Path, tables: tuple[str, ...]) -> None:
    """The install's own rows that *tables* leaves out, read from the database being replaced:
    its keys, its members and its phones' state (a phone's rights hold where the restored games
    keep their keys; its membership, whatever the file held)."""
    keys = [] if "install_keys" in tables else _install_keys(database)
    phones = [] if "phone_states" in tables else _install_keys(database, "phone_states")
    members = [] if "members" in tables else _install_keys(database, "members")
    with db.atomic():
        if keys:
            db.execute("delete from install_keys")
            db.table("install_keys").insert_all(keys)
        db.table("members").insert_all(members)
        db.table("phone_states").insert_all(phones)


def _build(
    backup: Path,
    temp: Path,
    database: Path,
    tables: tuple[str, ...] = COPIED,
    settled: Callable[[], None] = lambda: None,
) -> list[str]:
    """Build the restored database in *temp*; what the file held that was left out. *tables*:
    the tables whose rows come from the file (``COPIED``, and ``OWN`` too where a packed group
    is adopted); the install's own keys, members and phones' state are kept from *database*
    where *tables* leaves them out. *settled* is called before anything of *database* is
    read."""
    try:
        source = _open_read_only(backup)
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot open {backup}: {exc}.") from None
    try:
        source.execute("PRAGMA trusted_schema = OFF")
        applied, left_out = _read_schema(source, backup)
        reference = _columns_at(applied, tables)
        _check_columns(source, backup, reference)
        db = WritingDatabase(sqlite3.connect(str(temp), timeout=BUSY_TIMEOUT_SECONDS))
        try:
            db.execute("PRAGMA foreign_keys = ON")
            _apply_up_to(db, applied)
            for table in tables:
                if table in reference:
                    _copy_rows(source, db, backup, table, reference[table])
            migrate(db)
            if m010_names_show_every_character.__name__ not in applied:
                backfill.show_every_character(db)  # a backup older than the names' rules
            _check_and_score(db, backup, own="members" in tables)
            with db.atomic():  # the players' sums from the rows as restored and scored
                playsums.rebuild(db)
            backfill.record(db)  # every game was scored again, the ratings made again
            settled()  # the database replaced is read from here on
            _keep_own_rows(db, database, tables)
            db.execute("VACUUM")
        finally:
            db.close()
    except BackupError:
        raise
    except Exception as exc:  # a hostile file must end in one line, never a traceback
        detail = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise BackupError(f"{backup} cannot be restored: {detail}.") from None
    finally:
        source.close()
    with open(temp, "rb") as handle:
        os.fsync(handle.fileno())
    return left_out


def _read_schema(source: sqlite3.Connection, backup: Path) -> tuple[list[str], list[str]]:
    """The migrations the file has applied (a prefix of this version's), and what it holds
    besides the app's tables."""
    try:
        verdict = [row[0] for row in source.execute("PRAGMA integrity_check")]
        objects = source.execute("select type, name, sql from sqlite_master").fetchall()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{backup} is not a scorekeeper database ({exc}).") from None
    if verdict != ["ok"]:
        raise BackupError(f"{backup} is damaged: " + "; ".join(verdict[:5]))
    tables = {name for kind, name, _ in objects if kind == "table"}
    missing = (set(ALWAYS) | {migrations.migrations_table}) - tables
    if missing:
        raise BackupError(
            f"{backup} is not a scorekeeper database (it has no "
            f"{', '.join(sorted(missing))} table)."
        )
    applied = [
        migrations.current_name(row[0])  # a renumbered migration's former name: the new one
        for row in source.execute(
            f"select name from {migrations.migrations_table} where migration_set = ? "
            "order by rowid",
            [migrations.name],
        )
    ]
    known = [m.name for m in migrations._migrations]
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise BackupError(
            f"{backup} was written by a newer version of the scorekeeper "
            f"({', '.join(sorted(unknown))}); update it first."
        )
    if not applied or applied != known[: len(applied)]:
        raise BackupError(
            f"{backup} is not a scorekeeper database (its migrations are "
            f"{', '.join(applied) or 'none'})."
        )
    ours = _objects_at(applied)
    left_out = sorted(
        f"{kind} {name}"
        for kind, name, sql in objects
        if kind in ("table", "view", "trigger")
        and not name.startswith("sqlite_")
        and ours.get((kind, name)) != sql
    )
    return applied, left_out


def _reference(applied: list[str]) -> WritingDatabase:
    """A new database in memory with the schema at that version (the migrations run once per
    version and process: a box recovering many groups restores each through it)."""
    db = WritingDatabase(sqlite3.connect(":memory:"))
    db.conn.deserialize(_schema_image(tuple(applied)))
    return db


@functools.lru_cache(maxsize=4)
def _schema_image(applied: tuple[str, ...]) -> bytes:
    """The bytes of an empty database that this version's migrations built as far as a
    backup had them."""
    db = WritingDatabase(sqlite3.connect(":memory:"))
    try:
        known = [m.name for m in migrations._migrations]
        later = known[len(applied) :]
        migrations.apply(db, stop_before=later[0] if later else None)
        return db.conn.serialize()
    finally:
        db.close()


def _apply_up_to(db: Database, applied: list[str]) -> None:
    """This version's migrations as far as the backup had them, in *db* (new and empty)."""
    reference = _reference(applied)
    try:
        reference.conn.backup(db.conn)
    finally:
        reference.close()


def _objects_at(applied: list[str]) -> dict[tuple[str, str], str]:
    """The schema's own tables, views and triggers at that version, with their SQL."""
    db = _reference(applied)
    try:
        return {
            (kind, name): sql
            for kind, name, sql in db.execute("select type, name, sql from sqlite_master")
        }
    finally:
        db.close()


def _columns_at(
    applied: list[str], tables: tuple[str, ...] = COPIED
) -> dict[str, list[tuple[str, str, bool]]]:
    """Each copied table's columns as the migrations make them: (name, type, not null)."""
    db = _reference(applied)
    try:
        columns = {
            table: [
                (row[1], row[2].upper(), bool(row[3] or row[5]))
                for row in db.execute(f"pragma table_info({table})")
            ]
            for table in tables
        }
        return {table: found for table, found in columns.items() if found}  # at that version
    finally:
        db.close()


def _check_columns(
    source: sqlite3.Connection, backup: Path, reference: dict[str, list[tuple[str, str, bool]]]
) -> None:
    for table in reference:  # the tables of the backup's version
        have = {row[1] for row in source.execute(f"pragma table_info({table})")}
        wanted = {name for name, _, _ in reference[table]}
        if have != wanted:
            parts = []
            if wanted - have:
                parts.append(f"no {', '.join(sorted(wanted - have))} column")
            if have - wanted:
                parts.append(f"columns {', '.join(sorted(have - wanted))} it should not have")
            raise BackupError(
                f"{backup} is not a scorekeeper backup: its {table} table has "
                f"{' and '.join(parts)}."
            )


def _install_keys(database: Path, table: str = "install_keys") -> list[dict[str, object]]:
    """The install's own keys (or the rows of another *table* of its own: its phones'
    state), kept across a restore (read from the database replaced)."""
    if not database.is_file() or database.stat().st_size == 0:
        return []
    conn = _open_read_only(database)
    try:
        names = [
            c[0]
            for c in conn.execute(
                "select name from sqlite_master where type = 'table' and name = ?", [table]
            )
        ]
        if not names:
            return []
        cursor = conn.execute(f"select * from {names[0]}")
        columns = [d[0] for d in cursor.description]
        return [dict(zip(columns, row)) for row in cursor]
    except sqlite3.Error:
        return []
    finally:
        conn.close()


def _copy_rows(
    source: sqlite3.Connection,
    db: Database,
    backup: Path,
    table: str,
    columns: list[tuple[str, str, bool]],
) -> None:
    """Copy the rows of *table*, each value checked against its column's declared type."""
    names = ", ".join(f'"{name}"' for name, _, _ in columns)
    # a setting the migrations wrote meanwhile (the ratings' version) takes the file's value
    verb = "insert or replace" if table in ("settings", "install_keys") else "insert"
    insert = f"{verb} into {table} ({names}) values ({', '.join('?' * len(columns))})"
    cursor = source.execute(f"select {names} from {table}")
    with db.atomic():
        number = 0
        while True:
            rows = cursor.fetchmany(500)
            if not rows:
                break
            for row in rows:
                number += 1
                for value, (name, kind, not_null) in zip(row, columns):
                    _check_value(backup, table, number, name, kind, not_null, value)
            db.conn.executemany(insert, rows)


def _check_value(
    backup: Path, table: str, number: int, column: str, kind: str, not_null: bool, value: object
) -> None:
    if value is None:
        if not_null:
            raise BackupError(f"{backup}: row {number} of {table} has no {column}.")
        return
    allowed = KINDS.get(kind, (int, float, str))
    if not isinstance(value, allowed) or isinstance(value, bool):
        raise BackupError(
            f"{backup}: row {number} of {table} holds "
            f"{type(value).__name__} in {column}, not {kind.lower()}."
        )
    limit = restorechecks.text_limit(column, TEXT_LIMIT)
    if isinstance(value, str) and len(value) > limit:
        size = f"{limit // 1024} KB" if limit >= 1024 * 1024 else f"{limit} characters"
        raise BackupError(f"{backup}: row {number} of {table} holds more than {size} in {column}.")


def _check_and_score(db: Database, backup: Path, *, own: bool = False) -> None:
    """Every row checked as an import is, or as the form that makes it, and every game scored
    again by the engine; with *own*, the group's keys, members and phones' state too."""
    try:
        _check_rows(db, backup)
        if own:
            restorechecks.check_own(db)
    except restorechecks.Unsound as exc:
        raise BackupError(f"{backup}: {exc}") from None


def _check_rows(db: Database, backup: Path) -> None:
    from . import ratings, storage
    from .keys import KEY, PIN_HASH, PIN_METHOD

    with db.atomic():
        for row in list(db.query("select id, name from players")):
            name = storage.clean_name(row["name"])
            problem = name_problem(name)
            if problem is not None:
                raise BackupError(f"{backup}: player {row['id']} {NAME_REASONS[problem]}.")
            try:
                db.execute(
                    "update players set name = ?, name_key = ? where id = ?",
                    [name, storage.name_key(name), row["id"]],
                )
            except sqlite3.IntegrityError:
                raise BackupError(f"{backup}: two players are both called {name!r}.") from None
        for row in list(db.query("select * from games order by id")):
            game_id = row["id"]
            where = f"{backup}: game {game_id}"
            seats = [
                r["seat"]
                for r in db.query(
                    "select seat from game_players where game_id = ? order by seat", [game_id]
                )
            ]
            if seats != [0, 1, 2, 3]:
                raise BackupError(f"{where} does not seat four players.")
            numbers = [
                r["number"]
                for r in db.query(
                    "select number from deals where game_id = ? order by number", [game_id]
                )
            ]
            if numbers != list(range(1, len(numbers) + 1)):
                raise BackupError(f"{where}: its deals are not numbered 1 to {len(numbers)}.")
            if not (KEY.fullmatch(row["edit_key"] or "") and KEY.fullmatch(row["view_key"] or "")):
                raise BackupError(f"{where}: its edit or view key is not one.")
            if row["pin_hash"] is not None and not PIN_HASH.fullmatch(row["pin_hash"]):
                raise BackupError(
                    f"{where}: its table PIN is not a PIN's hash as this "
                    f"scorekeeper writes one ({PIN_METHOD})."
                )
            token = row["create_token"]
            if token is not None and not storage.FORM_TOKEN.fullmatch(token):
                raise BackupError(f"{where}: its form token is not one.")
            restorechecks.check_extra(row.get("extra_json"), f"game {game_id}")
            try:
                stored = storage.load_game(db, game_id)
            except InvalidResult as exc:
                raise BackupError(f"{where}: {exc.problems[0]}.") from None
            except (ValueError, TypeError, KeyError, RulesError) as exc:
                raise BackupError(f"{where} cannot be read ({exc}).") from None
            assert stored is not None
            scored = stored.game.score()
            for deal, record, scores in zip(stored.deals, stored.game.deals, scored.deals):
                if not KEY.fullmatch(deal["version_key"] or ""):
                    raise BackupError(f"{where}: deal {deal['number']}'s version key is not one.")
                values = storage.deal_values(record, scores)
                db.execute(
                    f"update deals set {', '.join(f'{k} = ?' for k in values)} where id = ?",
                    [*values.values(), deal["id"]],
                )
            storage.store_summary(db, game_id, stored.game, touch=False, rate=False)
        names: dict[int, list[str | None]] = {}
        for row in db.query(
            "select game_id, seat, p.name from game_players join players p on p.id = player_id"
        ):
            names.setdefault(row["game_id"], [None] * 4)[row["seat"]] = row["name"]
        for row in db.query("select * from deal_history"):
            restorechecks.check_history(row, names.get(row["game_id"]))
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise BackupError(
                f"{backup}: a row of {broken[0][0]} points to nothing in {broken[0][2]}."
            )
        if db.table("settings").exists():
            restorechecks.check_settings(db)
        if db.table("club_nights").exists():
            restorechecks.check_club_nights(db)
        if db.table("seasons").exists():
            restorechecks.check_seasons(db)
        if db.table("tournaments").exists():
            restorechecks.check_tournaments(db)
        if ratings.enabled(db):  # derived from the games, like the statistics
            ratings.recompute(db)


def _swap_in(built: Path, database: Path) -> None:
    """Put the database built in *built* in the place of *database*, all of it in one SQLite
    transaction (the backup API copies every page at once, through the database's journal):
    a crash leaves the old database or the new one, never a mix, and a connection left open
    on it reads the new one from its next query."""
    source = _open_read_only(built)
    target = connect(database)  # WAL, the file created readable by its owner only
    try:
        source.backup(target.conn)
    finally:
        source.close()
        target.close()


# -- a folder of dated backups, the oldest dropped -----------------------------------------
#: How a backup in a folder is named: the moment it was taken, so that names sort by age.
DATED_NAME = "scorekeeper-{stamp}.sqlite3"
DATED_PATTERN = "scorekeeper-????????-??????.sqlite3"


def backup_into(
    database: str | Path, folder: str | Path, keep: int, now: datetime | None = None
) -> tuple[Path, int, list[Path]]:
    """Write a dated backup of *database* into *folder* (made, owner only, if missing) and
    remove the oldest dated backups there beyond the newest *keep*. Returns the new file, the
    number of games in it and the files removed. Files of other names are never touched."""
    if keep < 1:
        raise BackupError("--keep must be at least 1: the backup just taken is kept.")
    folder = Path(folder)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"Cannot make the folder {folder}: {exc.strerror or exc}.") from None
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%d-%H%M%S")
    target = folder / DATED_NAME.format(stamp=stamp)
    count = backup_database(database, target)
    dated = sorted(folder.glob(DATED_PATTERN))
    removed = [path for path in dated[:-keep] if path != target]
    for path in removed:
        path.unlink(missing_ok=True)
    return target, count, removed
