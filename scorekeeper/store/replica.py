"""Litestream's replica of the box's databases, as the box sees it (docs/hosting.md "Backed up and
restored").

The shipped ways run the server under Litestream (``litestream replicate -exec "scorekeeper
serve ..."``: ``deploy/litestream-run.sh``, the replicate unit), so that one supervisor starts
and stops the pair. :func:`replicator` finds that Litestream (the server's parent), and
:func:`watch` notices when it ends: a server left running alone would go on acknowledging
deals that reach no replica, so the server stops (and the supervisor starts the pair again).

:func:`last_change` reads when the newest change Litestream took of a database was made: it
writes each change it takes from the database's log as an LTX file in the folder
``.<name>-litestream/ltx/<level>/`` beside the database (named by its first and last
transaction, in hex), whose header holds the time of the transaction, and sends it to the
replica within its ``sync-interval`` (a second, deploy/litestream.yml).
"""

from __future__ import annotations

import logging
import os
import re
import select
import struct
import threading
import time
from pathlib import Path
from typing import Callable, Iterable

from ..engine.processes import alive

log = logging.getLogger(__name__)

#: The name Litestream's process has (``/proc/<pid>/comm``).
LITESTREAM = "litestream"
#: An LTX file's name: its first and last transaction ids, in hex.
LTX_NAME = re.compile(r"([0-9a-f]{16})-([0-9a-f]{16})\.ltx")
#: An LTX header: "LTX1", flags, page size, commit, min and max transaction ids, then the
#: transaction's time in milliseconds since the epoch (big-endian).
LTX_MAGIC = b"LTX1"
LTX_TIMESTAMP = struct.Struct(">q")
LTX_TIMESTAMP_AT = 32
#: How often a watch without pidfd (not Linux) looks whether Litestream is still there.
WATCH_SECONDS = 0.5


def replicator() -> int | None:
    """The process id of the Litestream that runs this process (``replicate -exec``); None
    when the parent is anything else or cannot be told (not Linux)."""
    parent = os.getppid()
    try:
        name = Path(f"/proc/{parent}/comm").read_text().strip()
    except OSError:
        return None
    return parent if name == LITESTREAM else None


def watch(pid: int, lost: Callable[[], None]) -> threading.Thread:
    """Call *lost* once, from a thread of its own, as soon as process *pid* ends, however it
    ends (``kill -9`` included): a pidfd where the system has one, else a look every
    :data:`WATCH_SECONDS`."""

    def wait() -> None:
        try:
            handle: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):  # not Linux (or before 5.3), or already gone
            handle = None
        if handle is not None:
            try:
                select.select([handle], [], [])
            finally:
                os.close(handle)
        else:
            while alive(pid):
                time.sleep(WATCH_SECONDS)
        lost()

    thread = threading.Thread(target=wait, name="watches-litestream", daemon=True)
    thread.start()
    return thread


def changes_folder(database: str | Path) -> Path:
    """Where Litestream keeps the changes it took of *database*, beside it."""
    database = Path(database)
    return database.with_name(f".{database.name}-litestream") / "ltx"


def last_change(database: str | Path) -> float | None:
    """When the newest change Litestream took of *database* was made, in seconds since the
    epoch; None when it has taken none (or its files cannot be read)."""
    newest: tuple[int, str] | None = None
    try:
        levels = [entry.path for entry in os.scandir(changes_folder(database)) if entry.is_dir()]
    except OSError:
        return None
    for level in levels:
        try:
            names = [entry.name for entry in os.scandir(level)]
        except OSError:
            continue
        for name in names:
            match = LTX_NAME.fullmatch(name)
            if match and (newest is None or int(match.group(2), 16) > newest[0]):
                newest = (int(match.group(2), 16), os.path.join(level, name))
    if newest is None:
        return None
    try:
        with open(newest[1], "rb") as handle:
            header = handle.read(LTX_TIMESTAMP_AT + LTX_TIMESTAMP.size)
    except OSError:
        return None
    if len(header) < LTX_TIMESTAMP_AT + LTX_TIMESTAMP.size or not header.startswith(LTX_MAGIC):
        return None
    (milliseconds,) = LTX_TIMESTAMP.unpack_from(header, LTX_TIMESTAMP_AT)
    return milliseconds / 1000


def newest_change(databases: Iterable[str | Path]) -> float | None:
    """The newest of :func:`last_change` over *databases* (a box: its register and groups)."""
    times = [t for t in map(last_change, databases) if t is not None]
    return max(times, default=None)
