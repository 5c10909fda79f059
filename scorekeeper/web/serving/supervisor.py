"""``serve --workers N``: N server processes on one listening socket, so that a box with N cores
uses them all.

The parent makes the app (its edition drawn once, so that every worker's ETags agree), binds
the socket, warms the printer and starts the box's one job service (``engine/service.py``: the
printing and advisor processes every worker hands its jobs to), then forks the workers before
any thread is started. Each worker runs waitress on the shared socket (the kernel hands each new
connection to one of them) and stops cleanly on SIGTERM (``stopping``). Any worker can answer
any group: what a page shows is read from SQLite, whose version tags and data versions hold
across processes, and every kept page is keyed by them.

The parent only watches: it starts a worker or the job service again if one dies, forwards
SIGTERM and SIGINT to the workers, waits for them (within ``stopping.STOP_SECONDS``) and then
stops the service; when the parent itself is killed, the kernel sends each worker and the
service SIGTERM (``PR_SET_PDEATHSIG``), so none outlives it.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import time
from typing import Any, Callable

from ...engine.processes import die_with_parent

log = logging.getLogger(__name__)
#: A worker that dies within this many seconds of its start is not started again at once.
RESTART_PAUSE = 1.0


def listening_socket(host: str, port: int, backlog: int = 1024) -> socket.socket:
    """The socket every worker accepts on (IPv4 or IPv6, as *host* is)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(backlog)
    sock.setblocking(False)
    return sock


def _worker(run: Callable[[], Any], parent: int) -> None:
    """In the forked child: run the server until it is stopped, then end the process."""
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD):
        signal.signal(number, signal.SIG_DFL)
    die_with_parent(parent)
    status = 0
    try:
        run()
    except BaseException:  # noqa: BLE001 (logged; the parent starts another)
        log.exception("A server process failed")
        status = 1
    finally:
        # What a process of multiprocessing's own does before it ends: its finalizers give
        # back the semaphores of this process's pools, which the resource tracker would
        # otherwise report, in plain text, as leaked when the server stops.
        from multiprocessing import util

        util._run_finalizers(0)
        logging.shutdown()
        os._exit(status)


def supervise(
    count: int, run: Callable[[], Any], *, stop_seconds: float = 2.0, service: Any = None
) -> int:
    """Fork *count* workers that each call *run* (waitress on the shared socket, until
    SIGTERM), keep them running, and stop them all on SIGTERM or SIGINT. *service*: the job
    service's keeper (``engine/service.py``), started already: started again if it dies,
    stopped once the workers are."""
    parent = os.getpid()
    workers: dict[int, float] = {}
    stopping = False

    def start() -> None:
        pid = os.fork()
        if pid == 0:
            _worker(run, parent)
        workers[pid] = time.monotonic()

    def stop(signum: int, frame: Any = None) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(workers):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        for _ in range(count):
            start()
        log.info("%d server processes: %s", count, " ".join(map(str, workers)))
        while not stopping:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            if service is not None and pid == service.pid and not stopping:
                service.ended(status)
                continue
            started = workers.pop(pid, None)
            if started is None or stopping:
                continue
            log.error("Server process %d ended (status %d); starting another", pid, status)
            if time.monotonic() - started < RESTART_PAUSE:
                time.sleep(RESTART_PAUSE)
            if not stopping:
                start()
        deadline = time.monotonic() + stop_seconds
        while workers and time.monotonic() < deadline:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                workers.pop(pid, None)
            else:
                time.sleep(0.02)
        for pid in list(workers):  # past the time: ended, as a host would
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        if service is not None:
            service.stop()
        return 0
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
