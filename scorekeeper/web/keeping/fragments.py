"""Rendered fragments of pages, kept: the scoresheet and the leaderboard's table.

Both are most of a page that many phones reload, both cost a hundred cells said through the
catalog, and both only depend on what they show and on how this phone reads (its language,
digits and the table's words, and the app's root). So each is rendered once per pair and kept
(``store.kept``), under a key that says when it must be rendered again, and always holds the
request's group's database file (a fragment links to its group's pages):

- the scoresheet of a game: the ``Game`` object the game cache hands out for the stored
  document (a changed game is another object), whether it links to the deals, and the game's
  id; the entry holds its game, so that the object's ``id`` in the key cannot be reused while
  the entry lives;
- the leaderboard: the database's data version (``store.db.data_version``: any
  commit by any connection or process, or a write on this one, changes it), the filters and
  the order.
"""

from __future__ import annotations

from typing import Callable, Hashable

from flask import Flask, render_template, request
from markupsafe import Markup
from sqlite_utils import Database

from ...store import confirmations, ratings, stats
from ...store.db import data_version
from ...store.kept import Kept
from ...store.storage import StoredGame
from ..making import present
from ..access.groupspace import database_path
from ..making.i18n import DIGITS_COOKIE, current_language
from ..making.words import words_key

#: Fragments kept (a sheet is about 10 KB of HTML, a leaderboard up to 30 KB).
SIZE = 320

_kept: Kept[tuple[object, Markup]] = Kept(SIZE)


def reader_key() -> Hashable:
    """How this phone reads a page: everything a fragment's words and digits depend on."""
    return (
        current_language(),
        request.cookies.get(DIGITS_COOKIE),
        words_key(),
        request.script_root,
    )


def fragment(what: Hashable, render: Callable[[], Markup], *, holds: object = None) -> Markup:
    """The fragment *what* of the request's group, as this phone reads it, rendered by *render*
    when not kept. An entry is used only while it holds the very object *holds* (whose ``id``
    *what* may contain). Every key holds the group's database file: two groups with identical
    games read the same ``Game`` object and the same game id, but their fragments link to
    their own group's pages."""
    key = (database_path(), what, reader_key())
    entry = _kept.get(key)
    if entry is not None and entry[0] is holds:
        return entry[1]
    html = render()
    _kept.put(key, (holds, html))
    return html


def scoresheet(stored: StoredGame, readonly: bool = False) -> Markup:
    """The scoresheet of *stored*; with *readonly*, nothing in it links to a deal. The deals
    waiting for the other side's confirmation are marked (and part of the key)."""
    game = stored.game
    waiting = tuple(confirmations.waiting_numbers(stored.row, stored.deals))

    def render() -> Markup:
        sheet = present.scoresheet(game, game.progress(), game.score())
        return Markup(
            render_template(
                "_sheet.html",
                sheet=sheet,
                names=game.players,
                stored=stored,
                readonly=readonly,
                waiting=waiting,
            )
        )

    return fragment(("sheet", id(game), stored.id, bool(readonly), waiting), render, holds=game)


def leaderboard(
    db: Database,
    filters: stats.Filters,
    sort: str,
    rated: bool = False,
    *,
    offset: int = 0,
    limit: int = -1,
) -> Markup:
    """The leaderboard's table: everyone at every table reads it and few things change it.
    With *rated*, it has each player's rating (the group keeps ratings); *limit* players from
    *offset* (a page of it)."""

    def render() -> Markup:
        rows = stats.leaderboard(db, filters, sort, offset=offset, limit=limit)
        return Markup(
            render_template(
                "players/_board.html",
                rows=rows,
                filters=filters,
                sort=sort,
                recent_count=stats.RECENT,
                rated=rated,
                provisional_games=ratings.PROVISIONAL_GAMES,
            )
        )

    what = (
        "leaderboard",
        data_version(db),
        tuple(sorted(filters.args().items())),
        sort,
        rated,
        offset,
        limit,
    )
    return fragment(what, render)


def clear() -> None:
    _kept.clear()


def init_app(app: Flask) -> None:
    app.add_template_global(scoresheet)
