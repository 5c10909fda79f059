"""Connections to the SQLite database: WAL, a full sync at each commit, writers queued on one
lock per database, and one connection kept per thread."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any, Generator, Iterator, Sequence
from urllib.parse import quote

from sqlite_utils import Database
from sqlite_utils.db import Table
from sqlite_utils.utils import dedupe_keys

BUSY_TIMEOUT_SECONDS = 10


class WritingDatabase(Database):
    """sqlite-utils' Database whose outermost ``atomic()`` block takes the write lock at once.

    A plain ``BEGIN`` starts as a reader; when such a transaction reads first (a player's id,
    a fingerprint) and then writes while another connection has committed meanwhile, SQLite
    answers "database is locked" at once instead of waiting. ``BEGIN IMMEDIATE`` waits for the
    writer before reading anything, so every write transaction sees the latest data and queues
    up behind the busy timeout.

    Within this process, writers first queue on the database's :func:`write_lock`.

    Two checks that sqlite-utils makes on every call are left out, as each costs statements
    on every page: ``table()`` does not ask the schema whether the name is a view (this schema
    has none), and ``query()`` runs a plain SELECT without the savepoint it puts around a
    statement to undo one that returns no rows (a SELECT always returns rows and changes
    nothing).
    """

    write_lock: threading.RLock | None = None
    #: Which connection this is, told apart by data_version() whatever connection it is.
    serial: int = 0

    def table(self, table_name: str, **kwargs: Any) -> Table:
        kwargs.setdefault("strict", self.strict)
        return Table(self, table_name, **kwargs)

    def query(
        self,
        sql: str,
        params: Sequence | dict[str, Any] | None = None,
    ) -> Generator[dict, None, None]:
        if not _SELECT.match(sql):
            return super().query(sql, params)
        if self._tracer:
            self._tracer(sql, params)
        cursor = self.conn.execute(sql, *((params,) if params is not None else ()))
        keys = dedupe_keys(d[0] for d in cursor.description)
        return (dict(zip(keys, row)) for row in cursor)

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        if self.conn.in_transaction:  # nested: a savepoint, as sqlite-utils does it
            with super().atomic():
                yield self
            return
        with self.write_lock or contextlib.nullcontext():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self.rollback()
                raise
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self.rollback()
                raise


_SELECT = re.compile(r"\s*select\b", re.IGNORECASE)
_write_locks: dict[str, threading.RLock] = {}
_write_locks_guard = threading.Lock()


def write_lock(path: str | Path) -> threading.RLock:
    """The lock this process's write transactions on the database at *path* take first.

    A writer waits on it and is woken as soon as the one before it commits. Left to SQLite's
    busy handler, waiting writers poll with growing sleeps (up to 100 ms each) and a late one
    can overtake one that has waited long: with many tables saving at once, some saves took
    over a second. Writers in other processes (an import) still wait in the busy handler.
    """
    with _write_locks_guard:
        return _write_locks.setdefault(os.path.realpath(path), threading.RLock())


def create_private(path: Path) -> None:
    """Create a new database file readable by its owner only (it holds the games' edit keys);
    SQLite gives its -wal and -shm files the same permissions.

    An existing file is left alone: opening and closing another descriptor of a database that
    this process has open would drop SQLite's locks on it (POSIX advisory locks belong to the
    process and the file, and closing any descriptor of the file releases them).
    """
    if path.exists():
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:  # another thread or process made it meanwhile
        pass


_serials = itertools.count(1)


def connect(path: str | Path, *, create: bool = True) -> Database:
    """Open the database, in WAL mode, waiting for a writer rather than failing at once.

    Without *create*, a missing file is not made: opening it raises ``sqlite3.OperationalError``
    ("unable to open database file"). A group's file is opened so (SQLite's ``mode=rw``): a
    group deleted between finding its file and opening it stays deleted."""
    if str(path) == ":memory:":
        conn = sqlite3.connect(":memory:", timeout=BUSY_TIMEOUT_SECONDS)
    elif create:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        create_private(Path(path))
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS)
    else:
        conn = sqlite3.connect(
            f"file:{quote(str(path))}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_SECONDS
        )
    db = WritingDatabase(conn)
    db.serial = next(_serials)  # told apart by data_version(), whatever connection it is
    db.write_lock = write_lock(path)
    db.execute("PRAGMA foreign_keys = ON;")
    # synchronous=FULL: in WAL mode SQLite then syncs the log to disk at every commit, so a deal
    # that the app has acknowledged survives a power cut or an OS crash, not only a crash of
    # the server. NORMAL would skip that sync and could lose the last few acknowledged deals
    # on a power cut (the database would stay consistent, just older). One sync per saved deal
    # costs a few milliseconds, and a table saves a deal every few minutes.
    db.execute("PRAGMA synchronous = FULL;")
    if str(path) != ":memory:":
        db.enable_wal()
    return db


_kept = threading.local()


def data_version(db: Database) -> tuple[int, int, int]:
    """A value that changes whenever the database may have changed for *db*'s connection:
    another connection committed (SQLite's ``data_version``), or this one wrote (its
    ``total_changes``). Both count from the connection's opening, so the connection's own
    serial number comes first: two connections never share a value. Pages kept in memory
    are keyed by it, so they are never stale."""
    [(version,)] = db.conn.execute("pragma data_version").fetchall()
    return getattr(db, "serial", 0), version, db.conn.total_changes


#: How many databases a thread keeps a connection to (a box of many groups: the groups its
#: requests went to last). Bounded, so that what a server holds open does not grow with the
#: number of groups.
THREAD_CONNECTIONS = 4


def thread_connection(path: str, *, create: bool = True) -> Database:
    """The connection this thread keeps open to the database at *path*.

    Opening a connection and setting it up costs more than the queries of a page, and closing
    the last one open on a WAL database checkpoints it, with a sync to disk. So each thread
    (a server thread) opens one on first use and keeps it for its next uses; a thread keeps
    connections to the THREAD_CONNECTIONS databases it used last, closing the oldest.

    A kept connection is used again only while *path* is still the file it opened: a group's
    file deleted and another put in its place (a group moved away and adopted back under its
    id, ``store.moving``) is opened anew, never read or written through the deleted one.
    """
    kept = getattr(_kept, "dbs", None)
    if kept is None:
        kept = _kept.dbs = {}
    db = kept.pop(path, None)
    if db is not None and getattr(db, "opened", None) != _file_identity(path):
        with contextlib.suppress(sqlite3.Error):
            db.close()
        db = None
    if db is None:
        db = connect(path, create=create)
        db.opened = _file_identity(path)  # type: ignore[attr-defined]
        while len(kept) >= THREAD_CONNECTIONS:
            kept.pop(next(iter(kept))).close()
    kept[path] = db  # the newest last
    return db


def _file_identity(path: str) -> tuple[int, int] | None:
    """Which file *path* is now (its device and inode), or None where there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def forget_connection(path: str) -> None:
    """Close the connection this thread keeps to the database at *path*, if any (its file was
    deleted: the connection would go on reading the deleted file)."""
    db = getattr(_kept, "dbs", {}).pop(path, None)
    if db is not None:
        with contextlib.suppress(sqlite3.Error):
            db.close()
