"""A group's own settings (the ``settings`` table: a key, a value), each declared once here:
its key, the values it may hold and what writes it. Restore holds each restored row to its
declaration (``restorechecks.check_settings``) and the Settings page checks what it is sent
against it, so a new group setting is one entry here beside the code that reads and writes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from sqlite_utils import Database

from . import groups, ratings


@dataclass(frozen=True)
class GroupSetting:
    """A setting of the group: *fits* says whether a value is one the code that writes the
    setting (*written_by*) would have stored."""

    key: str
    fits: Callable[[str], bool]
    written_by: str


def one_of(*values: str) -> Callable[[str], bool]:
    return frozenset(values).__contains__


#: Every setting a group's file may hold.
DECLARED = (
    GroupSetting(ratings.SETTING, one_of("on", "off"), "Settings' ratings switch"),
    GroupSetting(
        ratings.VERSION,
        lambda v: re.fullmatch(r"[0-9a-f]{1,64}", v) is not None,
        "every change of the ratings kept (store.ratings)",
    ),
    GroupSetting(
        "group_name",
        lambda v: groups.name_problem(v) is None,
        "Start a group and the group's page (serve --groups)",
    ),
    GroupSetting("group_lang", one_of(*groups.LANGS), "Start a group (serve --groups)"),
)
BY_KEY = {setting.key: setting for setting in DECLARED}


def fits(key: str, value: str) -> bool:
    """Whether *key* is a declared setting and *value* one it may hold."""
    setting = BY_KEY.get(key)
    return setting is not None and setting.fits(value)


def put(db: Database, key: str, value: str) -> None:
    """Keep *value* for the setting *key*: one its declaration allows, else ValueError (the
    form that sends it checks it first, and says why to the player)."""
    if not fits(key, value):
        raise ValueError(f"the setting {key!r} cannot be {value!r}")
    with db.atomic():
        db.execute("insert or replace into settings (key, value) values (?, ?)", [key, value])
