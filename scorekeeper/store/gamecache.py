"""Games as the engine read them, kept in memory by the document they were read from.

``read_game`` is a pure function of its document, and a ``Game`` is never changed once read
(frozen, its deals a tuple; what it works out once, ``standing`` and ``scored``, only depends on
it). The pages read the same game over and over: each reload of a game page, and a deal save
reads the game, checks the new deal against it twice (the form, then storage inside its
transaction) and reads the result again for the page it redirects to. So the games read last
are kept here, keyed by their document as canonical JSON: any change to a game, by whatever
path, is another document and so another key, and a key cannot go stale. Storage names a
stored game's document by the stored strings it is made of (``storage.document_strings``),
which is cheaper than writing the document out.

The one kept thing not keyed by a group's database: a ``Game`` is the engine's reading of its
document and nothing else (no id, no link, no group), so two groups' identical games share
it. Everything drawn from it for a page is kept by the group's file too (``web.fragments``).
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..engine import Game, read_game
from .kept import Kept

#: Games kept (about 15 KB each with their scores); the least recently used goes first.
SIZE = 512


def document_key(doc: Mapping[str, Any]) -> str:
    """The document as canonical JSON. An empty title is left out, as ``game_to_dict`` leaves
    it out: ``read_game`` reads a missing title as the empty one."""
    if doc.get("title") == "":
        doc = {k: v for k, v in doc.items() if k != "title"}
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class GameCache(Kept[Game]):
    """Games by the document they were read from (or by a key naming that document)."""

    def __init__(self, size: int = SIZE):
        super().__init__(size)

    def read(self, doc: Mapping[str, Any]) -> Game:
        """``read_game(doc)``, or the game read from an equal document before. A document the
        engine refuses raises InvalidResult, as ``read_game`` does, and nothing is kept."""
        return self.get_or_make(document_key(doc), lambda: read_game(doc))


games = GameCache()
