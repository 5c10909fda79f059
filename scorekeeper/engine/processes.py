"""Worker processes, as the advisor and the printed sheets start them: with ``forkserver``
where the system has it (else ``spawn``), never by forking a threaded web server, and at a
lower priority than the process that asks, so that it keeps answering while they work."""
from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def lower_priority(nice: int) -> None:
    """A worker's initializer: lower this process's priority by *nice* (where it can)."""
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass


def context(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """The start method for workers; *preload*: modules the fork server imports once."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        start = multiprocessing.get_context("forkserver")
        if preload:
            start.set_forkserver_preload(list(preload))
        return start
    return multiprocessing.get_context("spawn")


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
            pool.shutdown(wait=True, cancel_futures=True)
