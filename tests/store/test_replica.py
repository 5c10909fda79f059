"""Issue 39, item 4: a watched replica, as the store sees it (``store.replica``): which change
Litestream took last, whether the Litestream that runs the server is still there, the watch that
notices it end; and every database file the box makes or restores is its owner's alone."""

from __future__ import annotations

import os
import stat
import struct
import subprocess
import threading
import time
from pathlib import Path

import pytest

from scorekeeper.store import backup, replica
from scorekeeper.store.db import connect
from scorekeeper.store.groups import Host
from scorekeeper.store.schema import migrate


def ltx(database: Path, level: int, first: int, last: int, at: float, magic=b"LTX1") -> Path:
    """An LTX file as Litestream writes it beside *database* (its header's first 40 bytes)."""
    folder = replica.changes_folder(database) / str(level)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{first:016x}-{last:016x}.ltx"
    header = magic + struct.pack(">iii", 2, 4096, 4) + struct.pack(">qqq", first, last, 0)
    path.write_bytes(header[:32] + struct.pack(">q", int(at * 1000)) + b"\0" * 60)
    return path


def test_issue39_4__the_last_change_is_the_newest_transaction_litestream_took(tmp_path):
    database = tmp_path / "scorekeeper.sqlite3"
    assert replica.last_change(database) is None  # never replicated
    ltx(database, 9, 1, 1, at=1000.0)  # the snapshot
    ltx(database, 1, 1, 6, at=1600.0)  # compacted: written later, of older transactions
    ltx(database, 0, 7, 7, at=1500.0)
    ltx(database, 0, 5, 5, at=1400.0)
    assert replica.last_change(database) == 1500.0
    ltx(database, 0, 8, 8, at=1700.0, magic=b"JUNK")  # not an LTX file: nothing said
    assert replica.last_change(database) is None
    other = tmp_path / "groups" / "abc.sqlite3"
    other.parent.mkdir()
    ltx(other, 0, 3, 3, at=1800.0)
    assert replica.newest_change([database, other, tmp_path / "none.sqlite3"]) == 1800.0
    assert replica.newest_change([tmp_path / "none.sqlite3"]) is None


def test_issue39_4__a_server_not_run_by_litestream_has_no_replicator():
    assert replica.replicator() is None  # pytest's parent is no litestream


def test_issue39_4__the_watch_tells_at_once_when_litestream_is_killed():
    process = subprocess.Popen(["sleep", "60"])
    told = threading.Event()
    try:
        assert replica.alive(process.pid)
        replica.watch(process.pid, told.set)
        time.sleep(0.2)
        assert not told.is_set()
        process.kill()  # ended, not yet reaped: already not alive
        assert told.wait(3)
        assert not replica.alive(process.pid)
    finally:
        process.kill()
        process.wait()
    assert not replica.alive(process.pid)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask():
    """A umask that would make files readable by everyone, as an ordinary login has."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_issue39_4__every_database_file_the_box_makes_or_restores_is_its_owners(
    tmp_path, open_umask
):
    host = Host(tmp_path / "box")
    group = host.create("Thursday")
    laptop = tmp_path / "laptop" / "scorekeeper.sqlite3"
    db = connect(laptop)
    migrate(db)
    lock = backup.serving_lock(laptop)
    copy = tmp_path / "copy.sqlite3"
    backup.backup_database(laptop, copy)
    made, _, _ = backup.backup_into(group.path, tmp_path / "backups", keep=2)
    db.close()
    if lock is not None:
        lock.close()
    restored = backup.restore_database(copy, laptop)
    db = connect(laptop)  # open: its -wal and -shm are there
    db.execute("create table written (x)")
    files = [
        host.register_path,
        group.path,
        laptop,
        Path(f"{laptop}-wal"),
        Path(f"{laptop}-shm"),
        Path(f"{laptop}{backup.LOCK_SUFFIX}"),
        copy,
        made,
        restored.kept,
    ]
    files += [p for p in (tmp_path / "box").rglob("*.sqlite3*") if p.is_file()]
    try:
        assert all(p.exists() for p in files), [p for p in files if not p.exists()]
        assert {str(p): oct(mode(p)) for p in files if mode(p) != 0o600} == {}
    finally:
        db.close()
