"""Work that takes seconds, limited while it runs: one per game, one per phone, a few in all.

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
#: What a phone told to wait is asked to wait, in seconds.
RETRY_SECONDS = 3

SAME_ASKER = lazy_gettext("Advice for this game or from this phone is still being worked out. "
                          "Wait for it, then ask again.")
BUSY = lazy_gettext("The advisor is busy with other tables' hands. Ask again in a few "
                    "seconds.")


class InFlight:
    """The keys of the work running now, and how many run in all."""

    def __init__(self, most: int):
        self.most = most
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
                raise ServiceUnavailable(str(BUSY), retry_after=RETRY_SECONDS)
            self._running.update(keys)
            self._count += 1
        try:
            yield
        finally:
            with self._lock:
                self._running.difference_update(keys)
                self._count -= 1


ADVICE = InFlight(ADVICE_AT_ONCE)
