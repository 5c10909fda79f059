"""The SQLite database: one connection per server thread, the schema as migrations applied at
start-up."""
from __future__ import annotations

import contextlib
import itertools
import os
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any, Generator, Iterator, Sequence

from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations
from sqlite_utils.db import Table
from sqlite_utils.utils import dedupe_keys
from werkzeug.routing import IntegerConverter

migrations = Migrations("scorekeeper")
BUSY_TIMEOUT_SECONDS = 10


@migrations()
def m001_initial(db: Database) -> None:
    """Players, games and their seats, the current version of each deal, and every version."""
    db.table("players").create(
        {"id": int, "name": str, "name_key": str, "created_at": str},
        pk="id", not_null=["name", "name_key"])
    db.table("players").create_index(["name_key"], unique=True)
    db.table("games").create(
        {"id": int, "title": str, "played_on": str, "rules_json": str, "first_king": int,
         "created_at": str, "updated_at": str,
         # the summary, rewritten on every write so that reports can read it by SQL
         "deal_count": int, "finished": int, "totals_json": str, "winners_json": str,
         "team_totals_json": str, "team_result": str, "next_king": int},
        pk="id", not_null=["rules_json", "first_king", "created_at", "updated_at"],
        defaults={"deal_count": 0, "finished": 0})
    db.table("games").create_index(["finished", "updated_at"])
    db.table("game_players").create(
        {"game_id": int, "seat": int, "player_id": int, "total": int, "rank": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null=["player_id"], defaults={"total": 0, "rank": 1})
    db.table("game_players").create_index(["player_id"])
    db.table("deals").create(
        {"id": int, "game_id": int, "number": int, "king": int, "contracts": str,
         "thrown_in": str, "record_json": str, "score_0": int, "score_1": int,
         "score_2": int, "score_3": int, "token": str, "version": int,
         "created_at": str, "updated_at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "number", "king", "record_json", "version"])
    db.table("deals").create_index(["game_id", "number"], unique=True)
    db.table("deals").create_index(["token"], unique=True)
    db.table("deal_history").create(
        {"id": int, "deal_id": int, "game_id": int, "number": int, "version": int,
         "record_json": str, "scores_json": str, "action": str, "token": str, "at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null=["deal_id", "game_id", "number", "version", "record_json", "action", "at"])
    db.table("deal_history").create_index(["game_id", "id"])
    db.table("deal_history").create_index(["token"], unique=True)


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

    def table(self, table_name: str, **kwargs: Any) -> Table:
        kwargs.setdefault("strict", self.strict)
        return Table(self, table_name, **kwargs)

    def query(self, sql: str, params: Sequence | dict[str, Any] | None = None,
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


def connect(path: str | Path) -> Database:
    """Open the database, in WAL mode, waiting for a writer rather than failing at once."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        create_private(Path(path))
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS)
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


def migrate(db: Database) -> None:
    """Apply every pending migration; running it again changes nothing."""
    migrations.apply(db)


_kept = threading.local()


def data_version(db: Database) -> tuple[int, int, int]:
    """A value that changes whenever the database may have changed for *db*'s connection:
    another connection committed (SQLite's ``data_version``), or this one wrote (its
    ``total_changes``). Both count from the connection's opening, so the connection's own
    serial number comes first: two connections never share a value. Pages kept in memory
    are keyed by it, so they are never stale."""
    [(version,)] = db.conn.execute("pragma data_version").fetchall()
    return getattr(db, "serial", 0), version, db.conn.total_changes


def get_db() -> Database:
    """The request's connection: the one this thread keeps open to the app's database.

    Opening a connection and setting it up costs more than the queries of a page, and closing
    the last one open on a WAL database checkpoints it, with a sync to disk. So each server
    thread opens one on first use and keeps it for its next requests; a thread keeps one
    connection, to the database it used last.
    """
    if "db" not in g:
        g.db = _thread_connection(str(current_app.config["DATABASE"]))
    return g.db


def _thread_connection(path: str) -> Database:
    kept = getattr(_kept, "db", None)
    if kept is not None:
        if kept[0] == path:
            return kept[1]
        kept[1].close()
        _kept.db = None
    db = connect(path)
    _kept.db = (path, db)
    return db


def close_db(exc: BaseException | None = None) -> None:
    """After each request: a transaction left open is rolled back, as closing would do."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


class RowIdConverter(IntegerConverter):
    """``<int:...>`` in a route: a number SQLite can hold as a row id, else no such page (a
    bigger number would make SQLite raise instead of finding nothing)."""

    def __init__(self, map, *args, **kwargs):  # noqa: A002 (werkzeug's name)
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    """Apply the migrations at start-up and end each request's use of its connection."""
    app.url_map.converters["int"] = RowIdConverter
    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.close()
    app.teardown_appcontext(close_db)


@migrations()
def m002_history_stats(db: Database) -> None:
    """What the history, player and leaderboard pages add up by SQL: the night, preset and
    finished flag of each game copied onto its seats, and one row of facts per seat and contract
    of every played deal. The indexes cover the pages' queries, so that they read narrow index
    pages in order rather than whole rows here and there."""
    games = db.table("games")
    games.add_column("night", str)  # played_on, else the day the game was started
    games.add_column("preset", str)  # the preset the rules are, or "custom"
    games.add_column("partnership", int)
    games.add_column("fingerprint", str)  # the game's content without names, to spot a re-import
    games.add_column("extra_json", str)  # keys of an imported file that the format does not name
    games.create_index(["night"])
    games.create_index(["fingerprint"])
    seats = db.table("game_players")
    seats.add_column("night", str)
    seats.add_column("preset", str)
    seats.add_column("finished", int)
    seats.create_index(["finished", "night", "preset", "player_id", "total", "rank", "game_id"],
                       index_name="idx_game_players_results")
    seats.create_index(["player_id", "finished", "night", "game_id", "seat", "total", "rank",
                        "preset"], index_name="idx_game_players_player_results")
    seats.create_index(["game_id", "seat", "player_id", "total", "rank"],
                       index_name="idx_game_players_game_results")
    # Clustered by game and seat: one player's rows of one game sit together on disk.
    db.execute("""create table seat_contract_stats (
        game_id integer not null references games(id), seat integer not null,
        deal_number integer not null, contract text not null, is_king integer not null,
        combined integer, points integer not null, took_kh integer, doubles_made integer,
        doubles_passed integer, doubles_back integer, took_doubled integer, trex_place integer,
        primary key (game_id, seat, deal_number, contract)) without rowid""")
    from .facts import rebuild_all

    rebuild_all(db)


#: 128 random bits as 32 hex digits, drawn by SQLite (the same expression fills the keys of a
#: game inserted by any path: the new-game form, an import, a restored backup).
RANDOM_KEY_SQL = "lower(hex(randomblob(16)))"


@migrations()
def m003_access(db: Database) -> None:
    """Who may change a game: its secret edit key, the view key the QR code carries, an optional
    table PIN (hashed), the new-game form's one-time token, and the PIN tries of the last
    minutes (kept in the database so that the limit holds across threads and restarts)."""
    games = db.table("games")
    for column in ("edit_key", "view_key", "pin_hash", "create_token"):
        games.add_column(column, str)
    db.execute(f"update games set edit_key = {RANDOM_KEY_SQL} where edit_key is null")
    db.execute(f"update games set view_key = {RANDOM_KEY_SQL} where view_key is null")
    games.create_index(["edit_key"], unique=True)
    games.create_index(["view_key"], unique=True)
    games.create_index(["create_token"], unique=True)
    db.execute(f"""create trigger games_keys after insert on games
        when new.edit_key is null or new.view_key is null
        begin
            update games set edit_key = coalesce(edit_key, {RANDOM_KEY_SQL}),
                             view_key = coalesce(view_key, {RANDOM_KEY_SQL})
            where id = new.id;
        end""")
    db.table("pin_attempts").create(
        {"id": int, "game_id": int, "client": str, "at": float},
        pk="id", not_null=["game_id", "client", "at"])
    db.table("pin_attempts").create_index(["game_id", "at"])
