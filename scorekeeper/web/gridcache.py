"""The kingdom grid, rendered once per game and way of reading it.

The grid is most of the game page and of the scoreboard other phones poll: a hundred score
cells, each with its sign, digits and the table's words for the contracts, all through the
catalog. It only depends on the game (a ``Game`` is never changed once read, and the game cache
hands out the same object for the same stored document), on whether it links to the deals,
and on how this phone reads (language, digits, the table's words). So the rendered HTML is kept
by those; the entry holds its game, so the game's ``id`` in the key cannot be reused while the
entry lives.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Hashable

from flask import Flask, render_template, request
from markupsafe import Markup

from . import present
from .i18n import DIGITS_COOKIE, current_language
from ..store.storage import StoredGame
from .words import words_key

#: Grids kept (about 8 KB of HTML each); the least recently used goes first.
SIZE = 256

_grids: OrderedDict[Hashable, tuple[object, Markup]] = OrderedDict()
_lock = threading.Lock()


def kingdoms(stored: StoredGame, readonly: bool = False) -> Markup:
    """The kingdom grid of *stored*; with *readonly*, nothing in it links to a deal."""
    game = stored.game
    key = (id(game), stored.id, bool(readonly), current_language(),
           request.cookies.get(DIGITS_COOKIE), words_key(), request.script_root)
    with _lock:
        entry = _grids.get(key)
        if entry is not None and entry[0] is game:
            _grids.move_to_end(key)
            return entry[1]
    grid = present.kingdom_grid(game, game.progress(), game.score())
    html = Markup(render_template("_grid.html", grid=grid, names=game.players, stored=stored,
                                  readonly=readonly))
    with _lock:
        _grids[key] = (game, html)
        while len(_grids) > SIZE:
            _grids.popitem(last=False)
    return html


def clear() -> None:
    with _lock:
        _grids.clear()


def init_app(app: Flask) -> None:
    app.add_template_global(kingdoms)
