"""Work that takes seconds, limited while it runs: one per game, one per phone, a few in all.

Charts take 30 to 80 ms each to draw: at most :data:`CHARTS_AT_ONCE` at once. The exports of
every game stream for as long as their reader reads, holding a server thread
while the body is more than the server buffers: at most :data:`EXPORTS_AT_ONCE` stream at once,
and past it the answer is 503 with ``Retry-After``.

The advisor plays hundreds of deals for one question (a second or more on the worker
processes), and a request that waits for it holds one of the server's eight threads. So at most
one advice is worked out at a time for each game and for each client address (an IPv6 phone
counts by its /64 network, as for PIN tries), and at most :data:`ADVICE_AT_ONCE` in all. A
question past a limit is answered at once, 429 (the same game or phone asked already: wait for
that answer) or 503 (the box is busy), both with ``Retry-After`` and the cards still picked:
never queued behind the others, so that the pages of every other table keep their threads.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Hashable, Iterator

from flask_babel import lazy_gettext
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

#: Advice worked out at once, at most, whoever asks (one per core of a small box).
ADVICE_AT_ONCE = 2
#: Charts drawn at once, at most (30 to 80 ms of Python each).
CHARTS_AT_ONCE = 2
#: Exports of many games streamed at once, at most.
EXPORTS_AT_ONCE = 2
#: What a phone told to wait is asked to wait, in seconds.
RETRY_SECONDS = 3

SAME_ASKER = lazy_gettext(
    "Advice for this game or from this phone is still being worked out. "
    "Wait for it, then ask again."
)
EXPORTS_BUSY = lazy_gettext("Other exports are being written just now. Ask again in a few seconds.")
CHARTS_BUSY = lazy_gettext("Other charts are being drawn just now. Ask again in a few seconds.")
BUSY = lazy_gettext("The advisor is busy with other tables' hands. Ask again in a few seconds.")


class InFlight:
    """The keys of the work running now, and how many run in all."""

    def __init__(self, most: int, busy=BUSY):
        self.most, self.busy = most, busy
        self._lock = threading.Lock()
        self._running: set[Hashable] = set()
        self._count = 0

    @contextmanager
    def one_each(self, *keys: Hashable) -> Iterator[None]:
        """Run the body while holding *keys* (each at most once at a time) and one of the
        :attr:`most` places; raises 429 or 503 at once when it cannot."""
        with self._lock:
            if any(key in self._running for key in keys):
                raise TooManyRequests(str(SAME_ASKER), retry_after=RETRY_SECONDS)
            if self._count >= self.most:
                raise ServiceUnavailable(str(self.busy), retry_after=RETRY_SECONDS)
            self._running.update(keys)
            self._count += 1
        try:
            yield
        finally:
            with self._lock:
                self._running.difference_update(keys)
                self._count -= 1

    def check_room(self) -> None:
        """503 now if every place is taken (the place itself is taken by :meth:`holding`)."""
        with self._lock:
            if self._count >= self.most:
                raise ServiceUnavailable(str(self.busy), retry_after=RETRY_SECONDS)

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Hold a place while the body runs, whatever the count (checked before)."""
        with self._lock:
            self._count += 1
        try:
            yield
        finally:
            with self._lock:
                self._count -= 1


ADVICE = InFlight(ADVICE_AT_ONCE)
EXPORTS = InFlight(EXPORTS_AT_ONCE, EXPORTS_BUSY)
CHARTS = InFlight(CHARTS_AT_ONCE, CHARTS_BUSY)
