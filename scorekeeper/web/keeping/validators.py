"""The pages everyone reloads, answered from what is already known: the game page, the
scoreboard (``watch``) and the state document both poll.

Phones mostly ask for a game that has not changed since they last saw it: the scorer after each
save, the scoreboard every few seconds, a second phone opening the same game. So each of these
answers carries a validator (an ``ETag``), and the body made for it is kept.

The key
-------
A page's key holds everything its body depends on, and nothing that costs more than the request
itself and one row of ``games`` read by its primary key:

- the app's edition, drawn when the app starts: a restart (new code, templates or assets,
  another configuration, a restored database) makes every page again;
- the request's group's database file (two groups' games may have the same id, and their
  pages link to their own group);
- the page, the game's id and its version tag (``games.version_tag``), which SQLite's triggers
  draw again on every change of the game's row, its deals, its seats or its players' names
  (``store/schema.py``, ``m008_version_tags``), whatever wrote it;
- how the phone reads: its language, digits, the table's words and the app's root
  (``fragments.reader_key``), the page's own address with its query (the language switch links
  back to it), the scheme and the host (the address other phones are shown, ``hosting``);
- for the game page, whether this phone may keep score: its session's right checked against
  the game's edit key and PIN, which the same row holds (``rights.known_right``). A new edit
  key or PIN changes the version tag too;
- for the game page, which shows the ratings before the first deal (the chances) and at the
  end (each player's change), the ratings' setting and version (``store.ratings.VERSION``,
  drawn again by every change of the ratings kept, whichever game made it), read in the same
  statement as the game's row.

The ``ETag`` is a digest of the key. A conditional request (``If-None-Match``) whose tag still
matches is answered 304 before any template, any write of the session and any other query.
Otherwise the body kept under the key is sent, and only when none is kept is the page made.

Only a view that opts in is kept (:func:`whole_page_cached`, which declares its key); every
other page is made for each request. What is never kept, nor given a validator, even then:

- a page with a flash message waiting in the session: the message is shown once, then the
  page without it is another page;
- a page whose making read what its key does not hold, checked after each making, whichever
  view, helper or template read it: a table of the database that the key does not cover
  (SQLite's authorizer names every table each statement reads; the game's version tag covers
  :data:`GAME_TABLES`, the ratings' version :data:`RATINGS_TABLES`), a CSRF token (it belongs
  to one session), the install's rights (admin, join), another game's rights, or anything that
  changed the session. So a helper that starts to read another table makes the page unkept,
  never wrong, without saying so; ``tests/web/test_validators.py`` holds the game page and the
  scoreboard kept, and every change of what they show validated again. What the key holds
  that is not in the database (the phone's cookies, the address) is read from the request by
  :func:`_answer` itself.

The state document (``state.json``) speaks no language and shows no rights: its key is the
edition, the group's database, the game and its version tag.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from contextlib import contextmanager
from functools import wraps
from typing import Any, Callable, Hashable, Iterator

from flask import Flask, Response, current_app, g, make_response, request, session

from ...store import members, schema
from ...store import ratings as rating_store
from ...store.kept import Kept
from ..access import phonestate, rights
from ..access.database import get_db
from .fragments import reader_key
from ..access.groupspace import database_path, in_group_space
from ..making.i18n import here

#: Pages kept: a game page is about 12 KB of HTML, a scoreboard about 10 KB.
SIZE = 256
EDITION = "scorekeeper.edition"
#: The tables whose every change draws the game's version tag again (``store/schema.py``,
#: ``m008_version_tags``: the game's row, its deals, its seats, its players' names), and the
#: schema, which only the migrations change before the app starts.
GAME_TABLES = frozenset({"games", "deals", "game_players", "players", "sqlite_master"})
#: The tables whose every change draws the ratings' version again (``store.ratings.VERSION``).
RATINGS_TABLES = frozenset({"settings", "ratings", "rating_changes"})
#: The tables whose every change draws the group's version tag again (``store/schema.py``,
#: ``m020_group_version``), and the schema.
GROUP_TABLES = frozenset(schema.GROUP_VERSION_TABLES) | {"group_version", "sqlite_master"}
#: What a kept or validated answer tells the browser: keep it, but ask before showing it again.
CACHE_CONTROL = "private, no-cache"

#: The headers a view sets of its own that a kept answer sends again (a chart's policy).
KEPT_HEADERS = ("Content-Security-Policy",)

_pages: Kept[tuple[bytes, str, tuple[tuple[str, str], ...]]] = Kept(SIZE)


def version_row(game_id: int) -> tuple[str | None, str | None, str | None, str | None] | None:
    """The game's version tag, edit key and PIN hash (one row by its primary key), the
    ratings' setting and version (one more by the settings' key) and this phone's state (one
    more by its key, ``phonestate``), in the same statement, or None when there is no such
    game."""
    row = (
        get_db()
        .conn.execute(
            f"select version_tag, edit_key, pin_hash, {rating_store.VERSION_SQL}, "
            f"{members.STATE_SQL} from games where id = ?",
            [phonestate.row_key(), game_id],
        )
        .fetchone()
    )
    if row is None:
        return None
    phonestate.preload(row[4])
    return row[:4]


def flash_waiting() -> bool:
    """Does the session hold a message for the next page? (Read without marking the session
    as used.)"""
    return bool(rights.peek("_flashes"))


def etag_of(key: Hashable) -> str:
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


def whole_page_cached(
    page: str,
    *,
    with_rights: bool = False,
    reader: bool = True,
    ratings: bool = False,
    cache_control: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Opt the view of one game's page (it takes ``game_id``) in to being kept and validated,
    and declare what its key holds besides the game's version tag: *with_rights*, whether this
    phone may keep score; *reader*, the phone's way of reading (a page in its language, with
    flash messages, not a document without words); *ratings*, the ratings' version. The page
    is kept only when its making read nothing else (see the module). *cache_control*: the
    header, when not ``private, no-cache``."""

    def opt_in(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def kept(game_id: int, **values: Any) -> Response:
            response = _answer(
                page,
                game_id,
                lambda: view(game_id=game_id, **values),
                with_rights=with_rights,
                reader=reader,
                ratings=ratings,
            )
            if cache_control:
                response.headers["Cache-Control"] = cache_control
            return response

        return kept

    return opt_in


def group_page_cached(
    page: str, *, holds: tuple[Callable[[], bool], ...] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Opt the view of a page the group looks back at (history, home, the leaderboard, a
    player, a night, a season, a chart) in to being kept and validated under the group's
    version tag (``m020_group_version``), which every write of the group's games, deals,
    players, ratings, settings, seasons, club nights and tournaments draws again. *holds*:
    the install's rights the page shows (``rights.is_admin``...), asked before the page is
    made and held in its key. The page is kept only when its making read nothing else (see
    the module)."""

    def opt_in(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def kept(**values: Any) -> Response:
            return _group_answer(page, values, lambda: view(**values), holds)

        return kept

    return opt_in


def _group_answer(
    page: str,
    values: dict[str, Any],
    make: Callable[[], object],
    holds: tuple[Callable[[], bool], ...],
) -> Response:
    """The group's page *page* (the view's arguments *values*): 304 when the phone has it,
    else the body kept for its key, else ``make()``, kept when it read nothing outside the
    key. The version tag and the phone's state are read in one statement."""
    row = (
        None
        if flash_waiting()
        else get_db()
        .conn.execute(f"select tag, {members.STATE_SQL} from group_version", [phonestate.row_key()])
        .fetchone()
    )
    if row is None:  # a flash: the page is made for this phone alone
        with tables_read(get_db().conn) as g.tables_read:
            return make_response(make())
    phonestate.preload(row[1])
    allowed = g.rights_read = set()
    held = tuple(hold() for hold in holds)
    key: tuple[Hashable, ...] = (
        current_app.extensions[EDITION],
        database_path(),
        page,
        tuple(sorted(values.items())),
        row[0],
        held,
        reader_key(),
        here(),
        request.scheme,
        request.host,
        in_group_space(),
    )
    return _serve(key, make, covered=GROUP_TABLES, allowed=allowed, reader=True)


@contextmanager
def tables_read(conn: sqlite3.Connection) -> Iterator[set[str]]:
    """The tables the statements run on *conn* meanwhile read (SQLite's authorizer; setting
    it makes the statements already prepared be prepared again, so none is missed)."""
    read: set[str] = set()

    def note(action: int, table: str | None, *_: Any) -> int:
        if action == sqlite3.SQLITE_READ and table:
            read.add(table)
        return sqlite3.SQLITE_OK

    conn.set_authorizer(note)
    try:
        yield read
    finally:
        conn.set_authorizer(None)


def _answer(
    page: str,
    game_id: int,
    make: Callable[[], object],
    *,
    with_rights: bool,
    reader: bool,
    ratings: bool,
) -> Response:
    """The page *page* of game *game_id*: 304 when the phone has it, else the body kept for
    its key, else ``make()`` (anything a view may return), kept when it read nothing outside
    the key."""
    row = None if reader and flash_waiting() else version_row(game_id)
    if row is None or row[0] is None:  # no such game (make() answers 404), or a flash
        with tables_read(get_db().conn) as g.tables_read:  # what it read, all the same
            return make_response(make())
    tag, edit_key, pin_hash, rated = row
    right = rights.known_right(game_id, edit_key, pin_hash) if with_rights else None
    key: tuple[Hashable, ...] = (
        current_app.extensions[EDITION],
        database_path(),
        page,
        game_id,
        tag,
        right,
        rated if ratings else None,
    )
    if reader:
        key += (reader_key(), here(), request.scheme, request.host, in_group_space())
    return _serve(
        key,
        make,
        covered=GAME_TABLES | (RATINGS_TABLES if ratings else frozenset()),
        allowed={("edit", game_id)} if with_rights else set(),
        reader=reader,
    )


def _serve(
    key: tuple[Hashable, ...],
    make: Callable[[], object],
    *,
    covered: frozenset[str],
    allowed: set[tuple[str, Any]],
    reader: bool,
) -> Response:
    """The page of *key*: 304 when the phone has it, else the body kept for it, else
    ``make()``, kept when its making read no table outside *covered* and no right outside
    *allowed*."""
    etag = etag_of(key)
    if request.if_none_match.contains_weak(etag):
        response = current_app.response_class(status=304)
    else:
        kept = _pages.get(key)
        if kept is not None:
            response = current_app.response_class(kept[0], mimetype=kept[1])
            response.headers.extend(kept[2])
        else:
            read = g.rights_read = set()
            with tables_read(get_db().conn) as g.tables_read:
                response = make_response(make())
            tables = g.tables_read
            if not (
                response.status_code == 200
                and read <= allowed
                and tables <= covered
                and made_for_anyone(response)
            ):
                return response
            own = tuple((h, response.headers[h]) for h in KEPT_HEADERS if h in response.headers)
            _pages.put(key, (response.get_data(), response.mimetype, own))
    response.set_etag(etag)
    response.headers["Cache-Control"] = CACHE_CONTROL
    if reader:
        response.vary.update(("Cookie", "Accept-Language"))
    return response


def made_for_anyone(response: Response) -> bool:
    """Did making the page leave the session as it was and embed no CSRF token?"""
    field = current_app.config["WTF_CSRF_FIELD_NAME"]
    return (
        not session.modified
        and not phonestate.written()
        and field not in g
        and not response.headers.get("Set-Cookie")
        and not response.direct_passthrough
    )


def clear() -> None:
    _pages.clear()


def init_app(app: Flask) -> None:
    app.extensions[EDITION] = secrets.token_hex(8)
