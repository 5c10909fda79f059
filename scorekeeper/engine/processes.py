"""Worker processes, as the advisor and the printed sheets start them: with ``forkserver``
where the system has it (else ``spawn``), never by forking a threaded web server, at a lower
priority than the process that asks, so that it keeps answering while they work, and tied to
the life of the server that started them, so that none outlives a server that was killed
(the fork server then ends too, as its last client is gone).

Every pool is made by :func:`pool`, which keeps a note of it, so that :func:`stop_all` ends
them all at once when the server stops (a worker writes nothing: it computes and hands back,
so ending it in the middle of its work leaves nothing half-written).
"""

from __future__ import annotations

import multiprocessing
import os
import select
import threading
import time
import weakref
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence

#: How often a worker looks whether its server is still there, where it cannot be told.
WATCH_SECONDS = 0.5
#: How long :func:`stop_all` waits for a worker to end once told to.
STOP_SECONDS = 1.0

PR_SET_PDEATHSIG = 1

_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def lower_priority(nice: int) -> None:
    """Lower this process's priority by *nice* (where it can)."""
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass


def end_with(pid: int) -> None:
    """End this process as soon as process *pid* (the server that asked for the worker) ends,
    however it ends (``kill -9`` included). A worker is the fork server's child, not the
    server's, and it holds the fork server's "alive" pipe open, so neither would notice the
    server was gone: a thread watches it instead (a pidfd where the system has one, else a
    look every half second)."""
    import threading

    def watch() -> None:
        try:
            handle = os.pidfd_open(pid)
        except AttributeError:  # not Linux, or before 5.3
            handle = None
        except OSError:  # already gone
            os._exit(1)
        if handle is not None:
            select.select([handle], [], [])
        else:
            while alive(pid):
                time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="ends-with-server", daemon=True).start()


def die_with_parent(parent: int) -> None:
    """End this process when its parent, *parent*, ends: the kernel sends it SIGTERM
    (``PR_SET_PDEATHSIG``, Linux), else a thread watches (:func:`end_with`). Ended at once if
    the parent is gone already."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        end_with(parent)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(0)


def _state(pid: int) -> str | None:
    """The kernel's one-letter state of process *pid* ("Z": ended, not yet reaped), None when
    there is no such process or no /proc to ask."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            line = stat.read()
    except OSError:
        return None
    return line.rpartition(")")[2].split()[0]


def alive(pid: int) -> bool:
    """Whether process *pid* is still running (an ended one not yet reaped is not)."""
    state = _state(pid)
    if state is not None:
        return state not in ("Z", "X")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def start_worker(nice: int, server: int) -> None:
    """A worker's initializer: ended with the *server* process, at a lower priority."""
    end_with(server)
    lower_priority(nice)


def context(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """The start method for workers; *preload*: modules the fork server imports once."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        start = multiprocessing.get_context("forkserver")
        if preload:
            start.set_forkserver_preload(list(preload))
        return start
    return multiprocessing.get_context("spawn")


def pool(workers: int, nice: int, preload: Sequence[str] = ()) -> ProcessPoolExecutor:
    """A pool of *workers* processes started as above, noted for :func:`stop_all`."""
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context(preload),
        initializer=start_worker,
        initargs=(nice, os.getpid()),
    )
    _pools.add(executor)
    return executor


def stop(executor: ProcessPoolExecutor, timeout: float = STOP_SECONDS) -> None:
    """End *executor*'s workers now: nothing more is started, work under way is dropped."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout)
        if process.is_alive():
            process.kill()
            process.join(timeout)
    _pools.discard(executor)


def stop_all(timeout: float = STOP_SECONDS) -> None:
    """End every pool's workers (the server is stopping)."""
    for executor in list(_pools):
        stop(executor, timeout)


class Workers:
    """A pool of worker processes started on first use (by *start*), kept for the next job,
    and stopped (to start again on the next use) by :meth:`shutdown`."""

    def __init__(self, start: Callable[[], ProcessPoolExecutor]):
        self._start = start
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = self._start()
            return self._executor

    def shutdown(self) -> None:
        with self._lock:
            pool, self._executor = self._executor, None
        if pool is not None:
            stop(pool)
