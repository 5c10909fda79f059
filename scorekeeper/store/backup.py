"""Backups of the database, taken while the server runs, and restoring one.

A backup goes through SQLite's online backup API: it copies the database as one snapshot, in
one read transaction, so a deal saved during the copy is either wholly in it or not at all, and
the server keeps writing meanwhile (WAL). The copy is checked and written to a temporary file
that takes the backup's name only once it is complete, readable by its owner alone (it holds the
games' edit keys).

A restore refuses a file that is not a sound scorekeeper database, and refuses to run while a
server uses the database: ``scorekeeper serve`` holds a shared lock on a file beside the
database for as long as it runs, and a restore needs that lock alone. The database being
replaced is first backed up beside itself, so a restore never loses anything either.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Iterator

from .db import BUSY_TIMEOUT_SECONDS, connect
from .schema import migrate, migrations

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; restore then relies on the user stopping it
    fcntl = None  # type: ignore[assignment]

#: The tables every scorekeeper database has, whatever its version.
TABLES = {"players", "games", "game_players", "deals", "deal_history", "_sqlite_migrations"}
LOCK_SUFFIX = ".serving"


class BackupError(Exception):
    """The backup or the restore cannot be done; the message says why, for a person."""


# -- the serving lock ----------------------------------------------------------------------
def _lock_path(database: str | Path) -> Path:
    return Path(f"{database}{LOCK_SUFFIX}")


def _lock(database: str | Path, exclusive: bool) -> IO[str] | None:
    """Take the lock beside *database* without waiting; None when someone else holds it."""
    if fcntl is None:
        return None
    handle = open(_lock_path(database), "a", encoding="ascii")
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
        raise BackupError(f"A restore is running on {database}; start the server again when "
                          f"it has finished.") from None


@contextlib.contextmanager
def _restore_lock(database: Path) -> Iterator[None]:
    try:
        handle = _lock(database, exclusive=True)
    except BackupError:
        raise BackupError(f"The scorekeeper is running on {database}. Stop it (Ctrl+C) first, "
                          f"then restore.") from None
    try:
        yield
    finally:
        if handle is not None:
            handle.close()


# -- checks --------------------------------------------------------------------------------
def _open_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                           timeout=BUSY_TIMEOUT_SECONDS)


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
            tables = {row[0] for row in conn.execute(
                "select name from sqlite_master where type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path} is not a scorekeeper database ({exc}).") from None
        if verdict != ["ok"]:
            raise BackupError(f"{path} is damaged: " + "; ".join(verdict[:5]))
        missing = TABLES - tables
        if missing:
            raise BackupError(f"{path} is not a scorekeeper database (it has no "
                              f"{', '.join(sorted(missing))} table).")
        applied = {row[0] for row in conn.execute(
            "select name from _sqlite_migrations where migration_set = ?", [migrations.name])}
        unknown = applied - {m.name for m in migrations._migrations}
        if unknown:
            raise BackupError(f"{path} was written by a newer version of the scorekeeper "
                              f"({', '.join(sorted(unknown))}); update it first.")
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
def restore_database(backup: str | Path, database: str | Path) -> tuple[int, Path | None]:
    """Replace the contents of *database* with *backup*; return the number of games restored
    and where the replaced database was kept (None if there was nothing to keep)."""
    backup, database = Path(backup), Path(database)
    check_database(backup)
    if database.exists() and database.resolve() == backup.resolve():
        raise BackupError("That file is the database itself.")
    database.parent.mkdir(parents=True, exist_ok=True)
    with _restore_lock(database):
        kept = None
        if database.exists() and database.stat().st_size > 0:
            stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
            kept = database.with_name(f"{database.name}.before-restore-{stamp}")
            backup_database(database, kept)
        source = _open_read_only(backup)
        target = sqlite3.connect(str(database), timeout=BUSY_TIMEOUT_SECONDS)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        db = connect(database)  # WAL again, and the migrations of this version
        try:
            migrate(db)
            verdict = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
            if verdict != ["ok"]:
                raise BackupError(f"The restored database is damaged: {'; '.join(verdict[:5])}"
                                  + (f". The earlier one is kept in {kept}." if kept else "."))
            count = db.execute("select count(*) from games").fetchone()[0]
        finally:
            db.close()
    return count, kept


# -- a folder of dated backups, the oldest dropped -----------------------------------------
#: How a backup in a folder is named: the moment it was taken, so that names sort by age.
DATED_NAME = "scorekeeper-{stamp}.sqlite3"
DATED_PATTERN = "scorekeeper-????????-??????.sqlite3"


def backup_into(database: str | Path, folder: str | Path, keep: int,
                now: datetime | None = None) -> tuple[Path, int, list[Path]]:
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
