"""Stopping the server cleanly: on SIGTERM (``docker stop``, ``systemctl stop``) or SIGINT
(Ctrl+C) the server stops taking connections, lets the requests under way finish and their
answers go out, closes the idle connections, ends the worker processes (printing, advisor)
and returns, all within :data:`STOP_SECONDS`.

Waitress's own loop would stop at once on Ctrl+C, with answers written by its threads but
never sent. Here the signal only sets a flag and wakes the loop; the loop then runs on until
the last busy connection is done, or the time is up. A request still running then is ended
with the process: SQLite's transaction makes sure nothing of it is half-written.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from typing import Any

#: Seconds from the signal to the end of the process, at most (the worker processes are
#: given what is left of it after the requests).
STOP_SECONDS = 2.0
#: Of those, how long the requests under way are given to finish.
DRAIN_SECONDS = 1.4
#: How long one turn of the loop waits while draining.
TURN = 0.05
SIGNALS = (signal.SIGTERM, signal.SIGINT)

log = logging.getLogger(__name__)


class Stopper:
    """The flag the signals set, and the wake-up of the server's loop."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.asked = threading.Event()

    def __call__(self, signum: int, frame: Any = None) -> None:
        self.asked.set()
        try:
            self.server.pull_trigger()
        except (OSError, AttributeError):
            pass


def _servers(server: Any) -> list[Any]:
    """The listening servers (waitress makes one per address when a name has several)."""
    from waitress.server import BaseWSGIServer, MultiSocketServer

    if isinstance(server, MultiSocketServer):
        return [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]
    return [server]


def _channels(socket_map: dict) -> list[Any]:
    from waitress.channel import HTTPChannel

    return [c for c in list(socket_map.values()) if isinstance(c, HTTPChannel)]


def _busy(channel: Any) -> bool:
    """A request of this connection is being answered, or its answer is not all sent."""
    return bool(channel.requests) or channel.total_outbufs_len > 0


def run(server: Any) -> None:
    """Run the waitress *server* until SIGTERM or SIGINT, then stop as the module says."""
    from waitress import wasyncore

    stopper = Stopper(server)
    previous = {s: signal.signal(s, stopper) for s in SIGNALS}
    listeners = _servers(server)
    socket_map = listeners[0]._map
    adj = listeners[0].adj
    try:
        while not stopper.asked.is_set():
            wasyncore.loop(
                timeout=adj.asyncore_loop_timeout,
                map=socket_map,
                use_poll=adj.asyncore_use_poll,
                count=1,
            )
        started = time.monotonic()
        log.info("Stopping: finishing the requests under way")
        for listener in listeners:
            wasyncore.dispatcher.close(listener)  # no new connections (its trigger stays)
        drain(socket_map, started + DRAIN_SECONDS, adj.asyncore_use_poll)
        listeners[0].task_dispatcher.shutdown(cancel_pending=True, timeout=0.1)
        from ...engine import processes

        processes.stop_all(max(0.1, STOP_SECONDS - 0.2 - (time.monotonic() - started)))
        log.info("Stopped in %.2f s", time.monotonic() - started)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def drain(socket_map: dict, deadline: float, use_poll: bool) -> None:
    """Run the loop until every connection has no request left and its answer is sent, closing
    each connection as it becomes idle (a keep-alive connection would wait for the next), or
    until *deadline*."""
    from waitress import wasyncore

    while time.monotonic() < deadline:
        channels = _channels(socket_map)
        for channel in channels:
            if not _busy(channel):
                channel.close()
        if not any(_busy(c) for c in channels):
            return
        wasyncore.loop(timeout=TURN, map=socket_map, use_poll=use_poll, count=1)
    left = [c for c in _channels(socket_map) if _busy(c)]
    if left:
        log.warning("Stopping with %d request(s) unfinished", len(left))
