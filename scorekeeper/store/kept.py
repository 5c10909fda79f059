"""The one way the app keeps things in memory: a bounded, thread-safe map whose least recently
used entry goes first.

Every cache of the app is one of these, and each states its invalidation in one place, its
key, so that nothing kept can go stale. On a box of many groups, whatever a group's pages
keep holds the group's database file in its key (two groups may hold identical games under
the same ids), except the engine's games, which belong to no group:

- the games the engine read (``store.gamecache``), keyed by the document they were read from:
  another document is another key;
- the rendered fragments of the pages (``web.fragments``): the kingdom grid, keyed by the game
  object the game cache hands out, and the leaderboard, keyed by the database's data version;
  both also by how the phone reads (language, digits, the table's words);
- whole pages of a game (``web.validators``): the game page, the scoreboard and the state
  document, keyed by the game's version tag (drawn again by the database on every change of
  the game), how the phone reads, and its right to keep score.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """At most *size* values by key; reading one makes it the most recently used."""

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept under *key*, else ``make()`` kept there. *make* runs outside the lock
        (two threads may both make it; the last one kept wins, and both are equal); if it
        raises, nothing is kept."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
