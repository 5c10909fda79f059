"""Who may change what: the rights a phone holds, kept on the server under the random key its
cookie holds (``phonestate``; "the session" below).

**A game.** A phone may enter, correct or undo deals of a game, and fix a misspelt name in it,
when its session says so. It gets there in one of three ways: it started the game; it opened the
game's secret edit link ``/e/<edit key>``; or it gave the table PIN. Any other phone may watch:
the pages that show a game are open, and the view link ``/v/<view key>`` (the one the QR code
carries) leads to them. The session keeps, for each game it may change, the game's id and the
first characters of its edit key, and, when the PIN let it in, a tag of that PIN: the key's
characters bind the right to that very game (a
restored backup or a database from elsewhere, where the same id is another game, grants
nothing), and a new edit key takes every phone's right back; a new PIN, or none, takes back the
rights the old PIN gave.

**The group's players.** Renaming, merging and deleting a player change every game they are
in, so they need the install's admin rights: a phone gets them by opening the secret admin link
(``scorekeeper admin-link``), and loses them when the link is rotated.

**Starting games.** On a hosted box (``serve --proxy-hops``) only a phone that opened the group's
join link (``scorekeeper join-link``), or holds admin rights, may start or import games; on a
laptop or the local network every phone may, as before.

**A club night.** Seating its next round, or taking back one seated by mistake, needs the
night's rights: the phone that started it has them, a phone that opened its secret organiser
link ``/clubs/<id>/e/<key>`` gets them, and a phone with admin rights holds them for every
night. Each table of a round is a game like any other, with its own rights.

**A tournament.** The phone that started it, a phone that opened its secret organiser link
``/tournaments/<id>/e/<key>``, and a phone with admin rights organise it: it keeps the score of
every match's table and hands out their links, PINs and QR codes, as a club night's organiser
does. Every member's phone follows the bracket.

The pages that give rights are ``pages/access.py``; the keys and the counted PIN tries are the
store's (``store/keys.py``).
"""

from __future__ import annotations

import hmac
import time
from functools import wraps
from typing import Any, Callable

from flask import Flask, abort, current_app, g, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField

from ...store import members, storage
from ...store.clubnights import club_key
from ...store.tournaments import tournament_key
from ...store.groups import SIZE_CAP, too_big
from ...store.keys import (
    HOSTED_PIN_DIGITS,
    PIN_DIGITS,
    PinLock,
    client_of,
    game_keys,
    install_key,
    pin_lock,
    pin_tag,
)
from . import groupspace
from .database import get_db
from . import phonestate
from .groupspace import private
from .hosting import hosted
from .security import safe_path

SESSION_KEY = "edit"
#: The session's key for the club nights this phone runs: [id, the first characters of its key].
CLUB_KEY = "clubs"
#: The same for the tournaments this phone organises.
TOURNAMENT_KEY = "tournaments"
#: The session's keys for the install's rights: the tags of the admin and join keys it opened.
ADMIN_KEY, JOIN_KEY = "admin", "join"
#: The games a phone remembers; the oldest is forgotten first (the cookie must stay small).
REMEMBERED_GAMES = 40
#: Characters of a key kept in the session to bind the right to it.
KEY_TAG = 12
#: The session cookie is not written again on every request (``SESSION_REFRESH_EACH_REQUEST``
#: is off, so that a page answered 304 writes nothing): a phone's rights are kept alive by
#: writing it again on the first request more than this many seconds after it was issued. Its
#: lifetime (``PERMANENT_SESSION_LIFETIME``, 31 days) then counts from that day's first visit.
SESSION_RENEWAL = 24 * 3600
#: The session's key for when it was last written (seconds since the epoch).
ISSUED = "at"


def _same(tag: object, key: str | None) -> bool:
    return (
        isinstance(tag, str)
        and key is not None
        and hmac.compare_digest(tag.encode(), key[:KEY_TAG].encode())
    )


# -- a game --------------------------------------------------------------------------------
def _rights() -> list[list[Any]]:
    value = phonestate.get(SESSION_KEY)
    return (
        [r for r in value if isinstance(r, list) and len(r) in (2, 3)]
        if isinstance(value, list)
        else []
    )


def noted(what: tuple[str, Any]) -> None:
    """Note that the page being made reads this right (``validators`` keeps a page only
    when its key holds every right it read)."""
    read = g.get("rights_read")
    if read is not None:
        read.add(what)


def _right(entry: list[Any] | None, edit_key: str | None, pin_hash: str | None) -> bool:
    return (
        entry is not None
        and _same(entry[1], edit_key)
        and (len(entry) == 2 or _same(entry[2], pin_tag(pin_hash)))
    )


def can_edit(game_id: int) -> bool:
    """May this phone change the game? (Cached for the request.)"""
    noted(("edit", game_id))
    cache = g.setdefault("edit_rights", {})
    if game_id not in cache:
        entry = next((r for r in _rights() if r[0] == game_id), None)
        keys = game_keys(get_db(), game_id) if entry is not None else None
        cache[game_id] = keys is not None and _right(entry, keys["edit_key"], keys["pin_hash"])
    return cache[game_id]


def known_right(game_id: int, edit_key: str | None, pin_hash: str | None) -> bool:
    """``can_edit``, with the game's edit key and PIN hash read already by the caller; the
    rest of the request sees the same answer."""
    entry = next((r for r in _rights() if r[0] == game_id), None)
    right = edit_key is not None and _right(entry, edit_key, pin_hash)
    g.setdefault("edit_rights", {})[game_id] = right
    return right


def grant(game_id: int, edit_key: str, *, by_pin: str | None = None) -> None:
    """Let this phone change the game from now on; *by_pin*: the hash of the PIN it gave,
    whose change takes the right back."""
    rights = [r for r in _rights() if r[0] != game_id]
    entry = [game_id, edit_key[:KEY_TAG]]
    tag = pin_tag(by_pin) if by_pin else None
    if tag:
        entry.append(tag)
    rights.append(entry)
    phonestate.put(SESSION_KEY, rights[-REMEMBERED_GAMES:])
    g.setdefault("edit_rights", {})[game_id] = True


def grant_game(game_id: int) -> None:
    keys = game_keys(get_db(), game_id)
    if keys is not None:
        grant(game_id, keys["edit_key"])


WATCH_KEY = "watch"


def may_watch(game_id: int) -> bool:
    """Did this phone open the game's view link (while it is the game's)? It may then follow
    that one game read-only, member of the group or not."""
    entries = phonestate.get(WATCH_KEY)
    entry = (
        next((e for e in entries if isinstance(e, list) and len(e) == 2 and e[0] == game_id), None)
        if isinstance(entries, list)
        else None
    )
    keys = game_keys(get_db(), game_id) if entry is not None else None
    return keys is not None and _same(entry[1], keys["view_key"])


def grant_watch(game_id: int, view_key: str) -> None:
    """Let this phone follow the game through its view link (only where reading is private)."""
    if not hosted() and not current_app.config["GROUPS"]:
        return
    entries = phonestate.get(WATCH_KEY)
    kept = (
        [e for e in entries if isinstance(e, list) and e[:1] != [game_id]]
        if isinstance(entries, list)
        else []
    )
    phonestate.put(WATCH_KEY, (kept + [[game_id, view_key[:KEY_TAG]]])[-REMEMBERED_GAMES:])


def edit_required(view: Callable) -> Callable:
    """The view changes the game ``game_id``: without the right, the locked page (403)."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any):
        if not can_edit(kwargs["game_id"]):
            return locked(kwargs["game_id"])
        return view(*args, **kwargs)

    return guarded


# -- a club night, a tournament -------------------------------------------------------------
def _organised(name: str) -> list[list[Any]]:
    """The club nights (or tournaments) this phone runs: [id, the first characters of its key]."""
    value = phonestate.get(name)
    return (
        [r for r in value if isinstance(r, list) and len(r) == 2] if isinstance(value, list) else []
    )


def _can_run(name: str, thing_id: int, key: str | None) -> bool:
    if is_admin():
        return True
    entry = next((r for r in _organised(name) if r[0] == thing_id), None)
    return entry is not None and _same(entry[1], key)


def _grant_running(name: str, thing_id: int, key: str | None) -> None:
    if key is None:
        return
    rights = [r for r in _organised(name) if r[0] != thing_id] + [[thing_id, key[:KEY_TAG]]]
    phonestate.put(name, rights[-REMEMBERED_GAMES:])


def can_run_club(club_id: int) -> bool:
    """May this phone seat the club night's rounds and take one back?"""
    return _can_run(CLUB_KEY, club_id, club_key(get_db(), club_id))


def grant_club(club_id: int) -> None:
    """Let this phone run the club night from now on."""
    _grant_running(CLUB_KEY, club_id, club_key(get_db(), club_id))


def can_run_tournament(tournament_id: int) -> bool:
    """Does this phone organise the tournament (it started it, opened its organiser link, or
    holds admin rights): it then holds the score of every match's table and hands out their
    links."""
    return _can_run(TOURNAMENT_KEY, tournament_id, tournament_key(get_db(), tournament_id))


def grant_tournament(tournament_id: int) -> None:
    _grant_running(TOURNAMENT_KEY, tournament_id, tournament_key(get_db(), tournament_id))


# -- the install: the group's players, starting games ---------------------------------------
def _holds(name: str) -> bool:
    noted((name, None))
    cache = g.setdefault("install_rights", {})
    if name not in cache:
        tag = phonestate.get(name)
        cache[name] = tag is not None and _same(tag, install_key(get_db(), name))
    return cache[name]


def is_admin() -> bool:
    """May this phone rename, merge and delete the group's players? (It opened the admin
    link, and the link has not been rotated since.)"""
    return _holds(ADMIN_KEY)


def grant_install(name: str, key: str) -> None:
    """Give this phone what the admin or join link gives."""
    phonestate.put(name, key[:KEY_TAG])
    g.setdefault("install_rights", {})[name] = True


def require_admin() -> None:
    if not is_admin():
        abort(
            403,
            _(
                "Players belong to the whole group: only a phone that opened the group’s "
                "admin link can rename, merge or delete them. To fix a misspelt name in "
                "one game, use that game’s Phones page."
            ),
        )


def _checked_first(check: Callable[[], None], view: Callable) -> Callable:
    """*view*, run once *check* has let the request through (it aborts when it does not)."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any):
        check()
        return view(*args, **kwargs)

    return guarded


def _require_group_admin() -> None:
    if not is_admin():
        abort(
            403,
            _(
                "Only a phone that holds the group’s admin rights can change the "
                "group: the phone that started it, or one that opened its admin "
                "link."
            ),
        )


def require_group_admin(view: Callable) -> Callable:
    """The view changes the group itself (its join link, members, name): the admin's only."""
    return _checked_first(_require_group_admin, view)


def may_start_games() -> bool:
    """May this phone start and import games? Always on a laptop or the local network; on a
    hosted box, or a box of many groups, a member of the group."""
    return is_member()


def holds_install_link() -> bool:
    """Did this phone open the group's current join link (before memberships were kept)?"""
    return _holds(JOIN_KEY)


def _require_may_start() -> None:
    if not may_start_games():
        abort(
            403,
            _(
                "This scorekeeper keeps one group’s games. To start or import a game "
                "here, open the group’s join link on this phone first: whoever runs "
                "the scorekeeper can give it."
            ),
        )
    if groupspace.many() and too_big(groupspace.database_path()):
        abort(
            403,
            _(
                "This group’s records have reached the most this box keeps for one "
                "group (%(size)s MB): no new game can be started or imported. The "
                "group’s admin can export everything from the group’s page and ask "
                "whoever runs the box.",
                size=SIZE_CAP // (1024 * 1024),
            ),
        )


def join_required(view: Callable) -> Callable:
    """The view starts or brings in games: on a hosted box, only for the group's phones."""
    return _checked_first(_require_may_start, view)


def pin_digits() -> int:
    """The fewest digits a table PIN may have here: more on a hosted box, open to anyone."""
    return HOSTED_PIN_DIGITS if hosted() else PIN_DIGITS[0]


def client() -> str:
    """Whom the PIN limits count for this request (the real phone's address behind a trusted
    proxy, see ``hosting``)."""
    return client_of(request.remote_addr)


# -- the group: its members -------------------------------------------------------------------
MEMBER = "member"


def is_member() -> bool:
    """May this phone read the request's group? Always on a laptop or the local network."""
    if not private():
        return True
    if "is_member" not in g:
        token = phonestate.get(MEMBER)
        g.is_member = (
            members.is_member(get_db(), token)
            or is_admin()
            or (token is None and holds_install_link())
        )  # joined before memberships
    return g.is_member


def admit(via: str) -> None:
    """Make this phone a member of the request's group (it opened the join or admin link, or
    started the group); a member already stays as it is."""
    if not private() or members.is_member(get_db(), phonestate.get(MEMBER)):
        phonestate.note_joined()
        return
    token = members.admit(get_db(), via, device_of(request.user_agent.string))
    phonestate.put(MEMBER, token)
    phonestate.note_joined()
    g.is_member = True


#: The phone's system and its browser, each as the first mark found in its user agent names it.
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac OS", "Mac"),
    ("Linux", "Linux"),
)
_BROWSERS = (
    ("Edg/", "Edge"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)


def device_of(agent: str) -> str:
    """A few words on the kind of phone, for the admin's list of members."""
    agent = agent or ""
    named = (
        next((name for key, name in marks if key in agent), "") for marks in (_SYSTEMS, _BROWSERS)
    )
    return " · ".join(p for p in named if p)


# -- the page a watching phone gets -------------------------------------------------------
class PinForm(FlaskForm):
    pin = StringField(lazy_gettext("Table PIN"))
    next = HiddenField()


def safe_next(game_id: int, target: str | None) -> str:
    """Where to go after the PIN: a page of this game on this site, else the game page."""
    game_page = url_for("games.show", game_id=game_id)
    return safe_path(target, within=game_page) or game_page


def fetch_with_keys(game_id: int) -> tuple[storage.StoredGame, dict[str, Any]]:
    db = get_db()
    stored = storage.load_game(db, game_id)
    keys = game_keys(db, game_id) if stored is not None else None
    if stored is None or keys is None:
        abort(404, _("There is no game %(number)s.", number=game_id))
    return stored, keys


def locked(
    game_id: int,
    *,
    form: PinForm | None = None,
    problem: str | None = None,
    status: int = 403,
    lock: PinLock | None = None,
):
    """The page a watching phone sees where it tried to change something; *lock*: why it may
    not give the PIN now (looked up when not given)."""
    stored, keys = fetch_with_keys(game_id)
    if form is None:
        back = request.full_path.rstrip("?") if request.method == "GET" else None
        form = PinForm(formdata=None, data={"next": safe_next(game_id, back)})
    if lock is None and keys["pin_hash"]:
        lock = pin_lock(get_db(), game_id, client())
    response = current_app.make_response(
        (
            render_template(
                "access/locked.html",
                stored=stored,
                form=form,
                has_pin=bool(keys["pin_hash"]),
                problem=problem,
                lock=lock,
                minutes=-(-lock.wait // 60) if lock else 0,
                pin_length=PIN_DIGITS[1],
            ),
            status,
        )
    )
    if lock is not None and status == 429:
        response.headers["Retry-After"] = str(lock.wait)
    return response


def peek(name: str) -> Any:
    """The session's value *name*, read without marking the session as used (an answer that
    used it varies by the cookie: ``Vary: Cookie``)."""
    return dict.get(session._get_current_object(), name)  # type: ignore[attr-defined]


def renew_session(response: Any) -> Any:
    """After each request: a permanent session (a phone that holds rights) is stamped with the
    time when it is written anyway, and written again when its stamp is a day old or more.
    (Read without marking the session as used, so that other answers do not vary by it.)"""
    if peek("_permanent"):
        issued = peek(ISSUED)
        now = int(time.time())
        if (
            session.modified
            or not isinstance(issued, int)
            or not (0 <= now - issued < SESSION_RENEWAL)
        ):
            session[ISSUED] = now
    return response


def init_app(app: Flask) -> None:
    app.after_request(renew_session)
    app.add_template_global(can_edit)
    app.add_template_global(is_admin)
