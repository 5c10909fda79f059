"""Many groups on one box: each group is a database file of its own, and a small register of
which groups there are.

A group's file (``<instance>/groups/<id>.sqlite3``) is an ordinary scorekeeper database, built
by the migrations: it holds all the group's games, players, nights, ratings, club nights,
settings, keys and members, and nothing of any other group. So a group is the unit of storage,
backup and placement on a box. The register (``<instance>/groups.sqlite3``) only says which
groups exist (id, name, language, when started), counts the groups each address started (the
limit on starting groups), and keeps the operator's invitation key. Nothing a group's pages
show is read from it.

A group's id is short and not a secret: it appears in every address of the group's pages
(``/g/<id>/...``). What admits a phone is the group's join link, a 128-bit secret kept in the
group's own file (``keys.py``), and then the phone's membership (``members.py``).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import sqlite3
import time
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

from sqlite_utils import Database

from ..engine.gamefile import has_control, is_visible
from .db import connect
from .paths import BEING_RESTORED_SUFFIX, KEPT_INFIX, LOCK_SUFFIX
from .refused import N_, Refused
from .backfill import up_to_date
from .schema import migrate, register_migrations

#: The register, beside the groups' folder in the instance folder.
REGISTER_FILE = "groups.sqlite3"
GROUPS_FOLDER = "groups"
GROUP_SUFFIX = ".sqlite3"
#: Litestream keeps its own copy of a database's recent changes in ``.<file>-litestream``.
LITESTREAM_SUFFIX = "-litestream"
#: Ids: 10 characters from an alphabet without look-alikes (about 50 bits: not guessable in
#: bulk, though it guards nothing by itself).
ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ID_LENGTH = 10
GROUP_ID = re.compile(r"[a-z2-9]{%d}" % ID_LENGTH)
NAME_LIMIT = 80
LANGS = ("en", "ar")
#: Starting groups, per client address: at most this many an hour and a day.
STARTS_PER_HOUR = 5
STARTS_PER_DAY = 20
#: Why a start is refused past the limit.
LIMIT_REACHED = N_("This address has started as many groups as it may for now. Try again later.")
#: A group's file may grow to this many bytes; past it, no new games are started or imported.
SIZE_CAP = 64 * 1024 * 1024
#: Why a start is refused on a box at its operator's cap on groups (``serve --max-groups``), or
#: with less free disk than its floor (``serve --min-free-disk``).
BOX_FULL = N_("This box takes no new groups: it holds as many as its operator allows.")
DISK_FULL = N_("This box takes no new groups for now: its disk is nearly full.")
#: The files of a group's database on disk (SQLite's log and shared memory beside it).
FILE_PARTS = ("", "-wal", "-shm")


@dataclass(frozen=True)
class Group:
    id: str
    name: str
    lang: str
    created_at: str
    path: Path


@dataclass(frozen=True)
class Activity:
    """What ``groups list`` shows of a group beyond its line in the register: its size on
    disk (the file, its log and shared memory), its number of games, and its last activity
    (the last change to any of its games, else when it was started)."""

    bytes: int
    games: int
    last_activity: str


def size_on_disk(path: str | os.PathLike[str]) -> int:
    """The bytes of a database file with its log and shared memory (0 for a missing part)."""
    total = 0
    for part in FILE_PARTS:
        with suppress(OSError):
            total += os.stat(f"{path}{part}").st_size
    return total


def activity(group: Group) -> Activity:
    """*group*'s size, games and last activity, read without writing (SQLite's read-only
    mode: nothing is migrated or checkpointed); a file that cannot be read counts no game."""
    games, last = 0, None
    try:
        conn = sqlite3.connect(f"file:{quote(str(group.path))}?mode=ro", uri=True, timeout=5)
        try:
            games, last = conn.execute("select count(*), max(updated_at) from games").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        pass
    return Activity(size_on_disk(group.path), int(games or 0), str(last or group.created_at))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def name_problem(name: str) -> str | None:
    """Why *name* cannot name a group (an English message marked for the catalog), or None."""
    if not name.strip() or not is_visible(name):
        return N_("Give the group a name.")
    if len(name.strip()) > NAME_LIMIT:
        return N_("A group's name has at most 80 characters.")
    if has_control(name) or any(
        0x202A <= ord(c) <= 0x202E
        or 0x2066 <= ord(c) <= 0x2069
        or c in "\u200b\u200c\u200d\u2060\ufeff"
        for c in name
    ):
        return N_("A group's name cannot hold invisible or direction characters.")
    return None


class Host:
    """The groups of one instance folder: where their files are, and the register.

    *max_groups* (None: no cap) and *min_free_bytes* (0: no floor) are the operator's bounds
    on starting groups (``serve --max-groups``, ``--min-free-disk``): past either, ``create``
    refuses (``BOX_FULL``, ``DISK_FULL``)."""

    def __init__(
        self,
        instance: str | os.PathLike[str],
        *,
        max_groups: int | None = None,
        min_free_bytes: int = 0,
    ):
        self.instance = Path(instance)
        self.folder = self.instance / GROUPS_FOLDER
        self.register_path = self.instance / REGISTER_FILE
        self.max_groups, self.min_free_bytes = max_groups, min_free_bytes

    # -- the register --------------------------------------------------------------------
    def register(self) -> Database:
        """A new connection to the register (made by its migrations when missing)."""
        db = connect(self.register_path)
        if "groups" not in db.table_names():  # an older one: `serve` and `migrate` at start
            migrate(db, register_migrations)
        return db

    def path_of(self, group_id: str) -> Path:
        if not GROUP_ID.fullmatch(group_id):
            raise ValueError(f"not a group id: {group_id!r}")
        return self.folder / f"{group_id}{GROUP_SUFFIX}"

    def file_of(self, group_id: str) -> Path | None:
        """The file of the group *group_id*, or None: there is none by that id (or it was
        deleted). A look at the folder, no database opened: every request of a group asks."""
        if not GROUP_ID.fullmatch(group_id or ""):
            return None
        path = self.path_of(group_id)
        return path if path.exists() else None

    def find(self, group_id: str) -> Group | None:
        """The group *group_id* with its line in the register, or None."""
        path = self.file_of(group_id)
        if path is None:
            return None
        db = self.register()
        try:
            row = next(db.query("select * from groups where id = ?", [group_id]), None)
        finally:
            db.close()
        if row is None:
            return None
        return Group(row["id"], row["name"], row["lang"], row["created_at"], path)

    def groups(self) -> Iterator[Group]:
        db = self.register()
        try:
            rows = list(db.query("select * from groups order by rowid"))
        finally:
            db.close()
        for row in rows:
            path = self.path_of(row["id"])
            if path.exists():
                yield Group(row["id"], row["name"], row["lang"], row["created_at"], path)

    def count(self) -> int:
        """How many groups the register lists."""
        db = self.register()
        try:
            return _count(db)
        finally:
            db.close()

    def bytes_on_disk(self) -> int:
        """The bytes of every group's file (with its log and shared memory) and the register."""
        total = size_on_disk(self.register_path)
        with suppress(OSError):
            for entry in os.scandir(self.folder):
                if entry.name.endswith(GROUP_SUFFIX) and not entry.name.startswith("."):
                    total += size_on_disk(entry.path)
        return total

    def free_bytes(self) -> int:
        """The free bytes of the disk that holds the groups' folder (or the instance folder)."""
        where = self.folder if self.folder.exists() else self.instance
        return shutil.disk_usage(where).free

    def full(self) -> str | None:
        """Why no group may be started now (``BOX_FULL``, ``DISK_FULL``), or None."""
        if self.max_groups is not None and self.count() >= self.max_groups:
            return BOX_FULL
        if self.min_free_bytes and self.free_bytes() < self.min_free_bytes:
            return DISK_FULL
        return None

    # -- starting and deleting -----------------------------------------------------------
    def starts_left(self, client: str, now: float | None = None) -> int:
        """How many groups *client* may start now (0: wait). Only a look: ``create`` counts
        again as it records the start, in one transaction."""
        db = self.register()
        try:
            return _starts_left(db, client, time.time() if now is None else now)
        finally:
            db.close()

    def _take_start(self, client: str) -> int:
        """Count *client*'s starts and record a new one in the same write transaction (``BEGIN
        IMMEDIATE``: the register's write lock, held by one connection of any process at a
        time), so that starts sent at the same moment to several server processes cannot all
        slip under the limit. The start's row id; ``Refused`` past the limit."""
        reg = self.register()
        try:
            with reg.atomic():
                now = time.time()
                if _starts_left(reg, client, now) <= 0:
                    raise Refused(LIMIT_REACHED)
                cursor = reg.execute(
                    "insert into group_starts (client, at) values (?, ?)", [client, now]
                )
                return int(cursor.lastrowid or 0)
        finally:
            reg.close()

    def create(self, name: str, lang: str = "en", *, client: str | None = None) -> Group:
        """Start a group: its file built by the migrations, then its line in the register.
        Refused (``Refused``) for a bad name or language, past *client*'s limit, or past the
        box's cap or floor (``full``: looked at first, and the cap again as the group's line
        is written, in one transaction, so that starts at the same moment cannot pass it
        together); nothing is left behind by a refusal or a failure. The start counts against
        *client*'s limit from the moment it is allowed (see ``_take_start``); a start that
        fails is given back."""
        name = name.strip()
        problem = name_problem(name)
        if problem:
            raise Refused(problem)
        if lang not in LANGS:
            raise Refused(N_("Choose English or Arabic."))
        full = self.full()
        if full:
            raise Refused(full)
        self.folder.mkdir(parents=True, exist_ok=True)
        start = self._take_start(client) if client is not None else None
        while True:
            group_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
            path = self.path_of(group_id)
            if not path.exists():
                break
        building = path.with_name(f".{group_id}.building")
        try:
            db = connect(building)
            try:
                up_to_date(db)
                with db.atomic():
                    for key, value in (("group_name", name), ("group_lang", lang)):
                        db.execute(
                            "insert or replace into settings (key, value) values (?, ?)",
                            [key, value],
                        )
            finally:
                db.close()
            _remove_with_journal(path)
            os.replace(building, path)
            self._enter(group_id, name, lang)
        except BaseException:
            _remove_with_journal(building)
            _remove_with_journal(path)
            if start is not None:  # a start that failed is given back
                self._write("delete from group_starts where rowid = ?", [start])
            raise
        return Group(group_id, name, lang, _now(), path)

    def _enter(self, group_id: str, name: str, lang: str) -> None:
        """The new group's line in the register, unless the box reached its cap meanwhile."""
        reg = self.register()
        try:
            with reg.atomic():
                if self.max_groups is not None and _count(reg) >= self.max_groups:
                    raise Refused(BOX_FULL)
                reg.execute(
                    "insert into groups (id, name, lang, created_at) values (?, ?, ?, ?)",
                    [group_id, name, lang, _now()],
                )
        finally:
            reg.close()

    def _write(self, sql: str, params: list) -> None:
        """One statement written to the register, in a transaction of its own."""
        reg = self.register()
        try:
            with reg.atomic():
                reg.execute(sql, params)
        finally:
            reg.close()

    def rename(self, group_id: str, name: str) -> None:
        self._write("update groups set name = ? where id = ?", [name, group_id])

    def delete(self, group_id: str) -> bool:
        """Delete the group: its line in the register, then its file (its log, shared memory
        and journal), what Litestream kept of it beside the file (deploy/litestream-groups.yml;
        its replica in the bucket stays where it is), the files a restore kept of it
        (``.before-restore-*``), its serving lock and the mark of a restore that was stopped. False: no such group."""
        group = self.find(group_id)
        if group is None:
            return False
        self._write("delete from groups where id = ?", [group_id])
        _remove_with_journal(group.path)
        shutil.rmtree(
            group.path.with_name(f".{group.path.name}{LITESTREAM_SUFFIX}"), ignore_errors=True
        )
        for kept in (
            *self.folder.glob(f"{group.path.name}{KEPT_INFIX}*"),
            self.folder / f"{group.path.name}{LOCK_SUFFIX}",
            self.folder / f"{group.path.name}{BEING_RESTORED_SUFFIX}",  # a stopped restore's
        ):
            with suppress(FileNotFoundError):
                os.remove(kept)
        return True

    def sweep(self, group_id: str) -> None:
        """Once a group's file is gone, what its readers may have left beside it: a reader that
        opened the file as it was deleted has SQLite make a new log and shared-memory file
        (``-wal``, ``-shm``) for it. Nothing is touched while the file exists."""
        path = self.path_of(group_id)
        if not path.exists():
            _remove_with_journal(path)

    # -- the operator's invitation ---------------------------------------------------------
    def invite_key(self, *, rotate: bool = False) -> str:
        """The key of the operator's link that lets a phone start a group when starting is
        by invitation (``serve --groups=invite``)."""
        reg = self.register()
        try:
            row = next(reg.query("select key from host_keys where name = 'invite'"), None)
            if row is None or rotate:
                with reg.atomic():
                    reg.execute(
                        "insert or replace into host_keys (name, key) values ('invite', ?)",
                        [secrets.token_hex(16)],
                    )
                row = next(reg.query("select key from host_keys where name = 'invite'"))
        finally:
            reg.close()
        return row["key"]


def _remove_with_journal(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with suppress(FileNotFoundError):
            os.remove(f"{path}{suffix}")


def _count(db: Database) -> int:
    return int(db.execute("select count(*) from groups").fetchone()[0])


def _starts_left(db: Database, client: str, now: float) -> int:
    times = [
        r["at"]
        for r in db.query(
            "select at from group_starts where client = ? and at >= ?", [client, now - 86400]
        )
    ]
    hour = sum(1 for at in times if at >= now - 3600)
    return max(0, min(STARTS_PER_HOUR - hour, STARTS_PER_DAY - len(times)))


def group_setting(db: Database, key: str) -> str | None:
    """A group's own setting (``group_name``, ``group_lang``), from its file."""
    row = next(db.query("select value from settings where key = ?", [key]), None)
    return row["value"] if row else None


def too_big(path: str | os.PathLike[str]) -> bool:
    """Has the group's file reached its size cap?"""
    try:
        return (
            sum(os.path.getsize(f"{path}{s}") for s in ("", "-wal") if os.path.exists(f"{path}{s}"))
            >= SIZE_CAP
        )
    except OSError:
        return False
