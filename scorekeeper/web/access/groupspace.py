"""Which group a request is for, as the other modules of the web wing ask it: whether this box
hosts many groups, whether reading is private, the request's group and its database file, and
the session's keys of that group. (``groups`` sets the request's group and guards its pages.)
"""

from __future__ import annotations

from flask import current_app, g

from ...store import groups as store_groups


def many() -> bool:
    """Does this box host many groups (``serve --groups``)?"""
    return bool(current_app.config["GROUPS"])


def private() -> bool:
    """Are the group's pages for its members only (many groups, or a hosted box)?"""
    return many() or bool(current_app.config["PROXY_HOPS"])


def host() -> store_groups.Host:
    return current_app.extensions["groups"]


def current() -> str | None:
    """The request's group id (with many groups), else None."""
    return g.get("group_id")


def database_path() -> str:
    """The database file of the request's group: its own file with many groups, else the
    install's one database."""
    return g.get("group_path") or str(current_app.config["DATABASE"])


def session_key(name: str) -> str:
    """The session's key for *name* in the request's group: one cookie holds a phone's rights
    in every group it belongs to, each group's apart."""
    group = current()
    return f"{group}:{name}" if group else name


def in_group_space() -> bool:
    """May the page being drawn link to the group's pages (its menu, its home)? Not for a
    phone outside the group, even where a secret let it see one game or one result."""
    return not g.get("outsider") and not g.get("visitor") and (not many() or current() is not None)
