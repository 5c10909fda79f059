"""A group deleted while a request of it runs (its admin on another phone, or the operator's
``scorekeeper groups delete``), on a box of many groups.

Between finding the group's file and opening it, or while its connection reads it, the file
may go. Its database then answers whatever it can: no file to open (a group's file is opened
with SQLite's ``mode=rw``, so it is never made again, ``store.db.connect``), ``disk I/O
error``, a game not found in what is left. None of that is shown: the request answers as a
missing group, the same 404 a phone outside the group gets (``errors.missing_group``), from
the database error's handler and after any view. This thread's connection to the deleted
file is closed, and what readers left beside it is removed (``store.groups.Host.sweep``).
"""

from __future__ import annotations

from flask import g
from flask_babel import lazy_gettext

from ...store.db import forget_connection
from ...store.groups import GROUP_ID
from .groupspace import current, host

#: What a phone that is not a member reads, whatever it asked for.
OUTSIDER_TEXT = lazy_gettext(
    "There is nothing here for this phone. To see a group’s games, open the group’s current "
    "join link on this phone: any member of the group can share it (an older link may have "
    "been replaced)."
)


def delete_current() -> None:
    """Delete the request's group (its admin asked, on its page): its file, and first this
    thread's connection to it. The request then answers as its view says, not as a group
    deleted under it."""
    group = current()
    if group is None:
        return
    g.pop("db", None)
    forget_connection(str(host().path_of(group)))
    host().delete(group)
    g.deleted_here = True


def deleted_meanwhile() -> bool:
    """Was the request's group deleted while the request ran (by anything but the request
    itself)? Then this thread's connection to the deleted file is closed, and what its
    readers left beside it removed."""
    group = current()
    if group is None or g.get("deleted_here") or not GROUP_ID.fullmatch(group):
        return False  # no group of this box (a laptop's request names none)
    if host().file_of(group) is not None:
        return False
    g.pop("db", None)  # the request is done with it
    forget_connection(str(host().path_of(group)))
    host().sweep(group)
    return True
