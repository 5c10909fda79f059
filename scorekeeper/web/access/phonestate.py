"""A phone's state in the request's group, kept on the server (``store.members``): its rights
(``rights``), its membership, its identity and who it says it is in each game (``phones``).

The phone's cookie holds one random key, the same for every group, and, on a box of many
groups, the ids of the groups it joined (for the front page, the newest
:data:`REMEMBERED_GROUPS`): so the cookie stays the same small size however many groups, games
and links the phone holds, and ending a phone's membership on the server takes everything back.

A cookie written before the state moved holds the state itself, each group's under its own
names (``<group>:edit``...): the first request in that group moves it into the group's row,
unless the membership it holds was ended meanwhile.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask import g, session

from ...store import members
from .database import get_db
from .groupspace import current, database_path, many, session_key

#: The cookie's name for the phone's key.
KEY = "k"
KEY_SHAPE = re.compile(r"[0-9a-f]{32}")
#: The cookie's name for the groups this phone joined, and how many it lists.
GROUPS = "groups"
REMEMBERED_GROUPS = 40
#: The names of a phone's state in a group, as an older cookie held them.
NAMES = ("edit", "watch", "clubs", "tournaments", "admin", "join", "member", "phone", "iam")


def _key(*, create: bool = False) -> str | None:
    value = session.get(KEY)
    if isinstance(value, str) and KEY_SHAPE.fullmatch(value):
        return value
    if not create:
        return None
    value = secrets.token_hex(16)
    session[KEY] = value
    session.permanent = True
    return value


def _phone(key: str) -> str:
    return members.phone_digest(key, current())


def _state() -> dict[str, Any]:
    """The phone's state in the request's group (read once a request, per group)."""
    if many() and current() is None:
        return {}  # the box's own pages: no group, no state
    cache = g.setdefault("phone_states", {})
    path = database_path()
    if path not in cache:
        key = _key()
        state = members.phone_state(get_db(), _phone(key)) if key else {}
        cache[path] = state
        _move_from_cookie()
    return cache[path]


def row_key() -> str | None:
    """The key of this phone's row in the request's group (None: it holds no key)."""
    key = _key()
    return _phone(key) if key else None


def preload(text: str | None) -> None:
    """The phone's state, as another statement read it with ``members.STATE_SQL``."""
    cache = g.setdefault("phone_states", {})
    path = database_path()
    key = row_key()
    if path not in cache:
        cache[path] = members.preloaded(get_db(), key, text) if key else {}
        _move_from_cookie()


def _move_from_cookie() -> None:
    """Move what an older cookie holds of the request's group into the group's row."""
    old = {name: session[session_key(name)] for name in NAMES if session_key(name) in session}
    if not old:
        return
    for name in old:
        session.pop(session_key(name), None)
    if members.was_ended(get_db(), old.get("member")):
        return
    state = _state_now()
    _write({name: value for name, value in old.items() if name not in state})


def _state_now() -> dict[str, Any]:
    return g.phone_states[database_path()]


def _write(changes: dict[str, Any]) -> None:
    if not changes:
        return
    key = _key(create=True)
    g.phone_states[database_path()] = members.change_phone_state(get_db(), _phone(key), changes)
    g.phone_state_written = True


def get(name: str) -> Any:
    """The phone's value *name* in the request's group, or None."""
    return _state().get(name)


def put(name: str, value: Any) -> None:
    """Set the phone's value *name* in the request's group (None removes it)."""
    if many() and current() is None:
        return  # the box's own pages hold nothing of a phone
    _state()
    _write({name: value})


def written() -> bool:
    """Did this request change the phone's state?"""
    return bool(g.get("phone_state_written"))


# -- the groups this phone joined (the cookie's list) ---------------------------------------
def joined() -> list[str]:
    """The ids of the groups this phone joined, as its cookie lists them, oldest first (and
    those an older cookie names)."""
    listed = session.get(GROUPS)
    ids = [i for i in listed if isinstance(i, str)] if isinstance(listed, list) else []
    older = [k.split(":", 1)[0] for k in session if k.endswith(":member")]
    return list(dict.fromkeys(ids + older))


def note_joined() -> None:
    """List the request's group among this phone's groups (with many groups)."""
    group = current()
    if not many() or not group:
        return
    ids = [i for i in joined() if i != group] + [group]
    session[GROUPS] = ids[-REMEMBERED_GROUPS:]
    session.permanent = True


def forget_group(group: str) -> None:
    """Take the group off this phone's list (the group is deleted)."""
    session[GROUPS] = [i for i in joined() if i != group]
    for name in [k for k in session if k.startswith(group + ":")]:
        session.pop(name, None)
