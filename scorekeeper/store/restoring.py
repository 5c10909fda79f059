"""Restoring one group while its box serves (``scorekeeper restore --group ID``).

While the restore runs, a mark lies beside the group's file (``<id>.sqlite3.being-restored``),
and every server process of the box (``serve --groups --workers N``: each its own process, so
a flag in memory would not do) looks for it before it opens the group's file: a group marked
answers every request with "being restored" (503, ``Retry-After``), its file left alone, and
the other groups go on. The mark is a file of its own, written whole and then linked into
place, that holds the restorer's process id and stays locked (``flock``) by the restorer for
as long as it runs: the system drops the lock when the restorer ends, whatever ends it, so a
mark left behind by a restore that was killed is seen as stale and ignored, and the next
restore of the group replaces it. Where there are no advisory locks (Windows), the process id
is asked after instead.

The restore itself is ``backup.restore_database``: the new file is built and checked apart,
then copied over the group's file in one SQLite transaction, the file replaced kept beside it;
a refused or failed restore changes nothing. Before it reads anything of the group's file (its
keys, members and phones' state, kept; the copy of it kept beside it), at least
:data:`SETTLE_SECONDS` have gone by since the mark was placed (the new file is built meanwhile),
so that a request that was already past the mark when it was placed has ended: what it wrote is
in the copy kept.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

from ..engine.processes import alive
from .backup import BackupError, Restored, check_backup_file, restore_database
from .paths import BEING_RESTORED_SUFFIX

try:
    import fcntl
except ImportError:  # Windows: the restorer's process id is asked after instead
    fcntl = None  # type: ignore[assignment]

#: The mark's name beside the group's file.
MARK_SUFFIX = BEING_RESTORED_SUFFIX
#: How long the restorer waits, once the mark is placed, for the requests already past it.
SETTLE_SECONDS = 2.0
#: What a phone is asked to wait before it asks again, in seconds.
RETRY_SECONDS = 10


def mark_path(database: str | os.PathLike[str]) -> Path:
    return Path(f"{database}{MARK_SUFFIX}")


def being_restored(database: str | os.PathLike[str]) -> bool:
    """Is the database at *database* being restored now? One look for a file that is not there
    on every request of a group; a mark whose restorer has ended is not a restore."""
    try:
        fd = os.open(mark_path(database), os.O_RDONLY)
    except OSError:
        return False
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return True  # its restorer holds it
            return False  # nobody does: the restorer ended without taking it away
        return _alive(os.read(fd, 32))
    finally:
        os.close(fd)


def _alive(text: bytes) -> bool:
    """Whether the restorer whose process id the mark holds (*text*) still runs."""
    try:
        pid = int(text.split()[0])
    except (ValueError, IndexError):
        return False
    return alive(pid)


@contextlib.contextmanager
def marked(database: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the mark on *database* while the body runs; raises BackupError while another
    restore of it runs. The mark is made apart, locked, then linked into place: nobody sees a
    mark that is not held."""
    database = Path(database)
    mark = mark_path(database)
    fd, temp = tempfile.mkstemp(prefix=f".{mark.name}.", dir=database.parent)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # a file of its own: nobody else holds it
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        try:
            os.link(temp, mark)
        except FileExistsError:
            if being_restored(database):
                raise BackupError(
                    f"Another restore of {database} is running; wait for it to end."
                ) from None
            os.replace(temp, mark)  # a stale mark, of a restore that was stopped
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)  # the mark's one name is its own
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                if os.path.samestat(os.stat(mark), os.fstat(fd)):
                    os.unlink(mark)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        os.close(fd)  # the lock goes with it


def restore_group(
    backup: str | os.PathLike[str],
    database: str | os.PathLike[str],
    *,
    settle: float = SETTLE_SECONDS,
    on_marked: Callable[[], None] = lambda: None,
) -> Restored:
    """Restore *backup* into the group's file *database* while the box serves: marked for the
    whole restore (the group answers "being restored"; *on_marked* is called once it does),
    the mark taken away at the end, whether the restore was done or refused. A file that is
    plainly no backup is refused before the mark is placed."""
    backup, database = Path(backup), Path(database)
    check_backup_file(backup)
    with marked(database):
        on_marked()
        settled_at = time.monotonic() + settle  # the requests already past the mark end by then

        def settled() -> None:
            time.sleep(max(0.0, settled_at - time.monotonic()))

        return restore_database(backup, database, settled=settled)
