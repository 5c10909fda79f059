"""Which group a request is for, and whether this phone may read it.

**Many groups on one box** (``serve --groups``, config ``GROUPS``: ``"open"``, or ``"invite"``
when starting a group needs the operator's link). Every page of a group sits under
``/g/<group id>/``: the pages are the same blueprints as on a laptop, registered under that
prefix, and ``url_for`` fills the request's group in by itself. Each group is its own database
file (``store.groups``); the request's connection opens the group's file. The box's own pages
(the front page, starting a group) and what belongs to no group (static files, the service
worker, ``/healthz``) sit outside.

**Private reading.** With groups, and on a hosted box with one group (``--proxy-hops``), a
group's pages answer only its members: phones that opened its join link, its admin link, or
started it (``store.members``). Anyone else gets the same 404 as for an address that leads
nowhere, whatever the group, the game or the key: an address copied out of the app gives a
stranger, or a member of another group, nothing. Four secrets open one thing each without
membership: a game's edit link (keeping score at that game: a club night's table phone), its
view link (watching that one game), a shared result's link (that one result), and a club
night's or a tournament's wall link (that wall, for a TV: what it polls, nothing else). On a
laptop or the local network, every phone on the Wi-Fi reads, as before.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, abort, current_app, g, make_response, request

from ..store import groups as store_groups
from ..store.db import connect, forget_connection
from ..store.backfill import up_to_date
from ..store.restoring import RETRY_SECONDS, being_restored
from .access.database import get_db
from .access.deleted import OUTSIDER_TEXT, deleted_meanwhile
from .making.errors import BeingRestored, missing_group
from .access.groupspace import current, host, in_group_space, many, private
from .access.rights import is_member

#: The prefix of a group's pages.
PREFIX = "/g/<group>"
#: Blueprints (by name) that belong to no group: registered once, outside the groups' space.
OUTSIDE = frozenset({"health", "offline", "front", "switches", "metrics"})
#: What a club night's or a tournament's wall link opens (its key, not the phone, decides).
WALL = frozenset({"walls.wall", "walls.state", "walls.qr"})
#: What a phone that holds a game's view link may open of that game.
WATCHING = frozenset(
    {
        "live.watch",
        "live.state",
        "live.qr",
        "confirm.confirm",
        "confirm.confirm_all",
        "confirm.iam",
        "rules.game",
        "sheets.game_sheet",
        "sheets.game_sheet_png",
    }
)

_migrated: set[str] = set()


def outsider() -> None:
    """The answer to a phone that is not a member: the 404 of an address that leads nowhere,
    drawn without the group's menu."""
    g.outsider = True
    abort(404, OUTSIDER_TEXT)


# -- the request's group ------------------------------------------------------------------
def _open_group(group_id: str) -> None:
    path = host().file_of(group_id)
    if path is None:
        if store_groups.GROUP_ID.fullmatch(group_id):  # deleted: let go of the deleted file
            forget_connection(str(host().path_of(group_id)))
        outsider()
    g.group_id, g.group_path = group_id, str(path)
    if g.group_path not in _migrated:  # a file put here since `serve` started (a group moved)
        db = connect(path, create=False)
        try:
            up_to_date(db)
        finally:
            db.close()
        _migrated.add(g.group_path)


def _after(response: Response) -> Response:
    """A request whose group was deleted while it ran answers as a missing group, whatever
    its view made of what it could still read (a page of the deleted file, a game not found,
    a save that no file keeps)."""
    if deleted_meanwhile():
        return make_response(missing_group())
    return response


def _secret_opens(endpoint: str, values: dict[str, Any]) -> bool | None:
    """For the addresses that carry a secret: does the secret open what it leads to? None
    for the others."""
    from .access.rights import ADMIN_KEY, JOIN_KEY
    from ..store.keys import KEY, install_key_matches

    key = values.get("key")
    if endpoint in ("access.join_link", "access.admin_link"):
        return install_key_matches(
            get_db(), JOIN_KEY if endpoint == "access.join_link" else ADMIN_KEY, str(key)
        )
    if endpoint in ("access.edit_link", "access.view_link"):
        column = "edit_key" if endpoint == "access.edit_link" else "view_key"
        return (
            KEY.fullmatch(str(key)) is not None
            and get_db().conn.execute(f"select 1 from games where {column} = ?", [key]).fetchone()
            is not None
        )
    if endpoint.startswith("result.shared_"):
        from .pages.result import shared_result_opens

        return shared_result_opens(values)
    if endpoint in WALL:
        from .pages.walls import wall_opens

        return wall_opens(values)
    return None


def _guard(endpoint: str, values: dict[str, Any]) -> None:
    """Let the request through, or answer the 404 of an address that leads nowhere."""
    if is_member():
        return
    g.visitor = True
    opens = _secret_opens(endpoint, values)
    if opens is not None:
        return None if opens else outsider()
    game_id = values.get("game_id")
    if isinstance(game_id, int):
        from .access.rights import can_edit, may_watch

        if can_edit(game_id) or (endpoint in WATCHING and may_watch(game_id)):
            return
    outsider()


def _not_being_restored(group_id: str) -> None:
    """A group being restored (``store.restoring``) answers "being restored" to every request,
    before anything opens its file: the other groups go on."""
    if store_groups.GROUP_ID.fullmatch(group_id) and being_restored(host().path_of(group_id)):
        raise BeingRestored(RETRY_SECONDS, f"{request.script_root}/g/{group_id}/")


def _pull(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if endpoint is None:  # no page of that address (404, 405): under a group's prefix too
        if many() and request.path.startswith("/g/"):
            _not_being_restored(request.path.split("/")[2])
        return
    if endpoint == "static" or endpoint.split(".")[0] in OUTSIDE:
        return
    values = values if values is not None else {}
    if many():
        group_id = str(values.pop("group", ""))
        _not_being_restored(group_id)
        _open_group(group_id)
    if private():
        _guard(endpoint, values)


def _fill(endpoint: str, values: dict[str, Any]) -> None:
    group = current()
    if (
        group
        and "group" not in values
        and current_app.url_map.is_endpoint_expecting(endpoint, "group")
    ):
        values["group"] = group


def register(app: Flask, blueprints: tuple[Any, ...]) -> None:
    """Register the pages: under each group's prefix with many groups, else at the root."""
    spread = bool(app.config["GROUPS"])
    if spread:
        from .pages import front

        blueprints = (front.bp, *blueprints)
    for page in blueprints:
        if spread and page.name not in OUTSIDE:
            app.register_blueprint(page, url_prefix=PREFIX + (page.url_prefix or ""))
        else:
            app.register_blueprint(page)


def init_app(app: Flask) -> None:
    app.extensions["groups"] = store_groups.Host(
        app.instance_path,
        max_groups=app.config["MAX_GROUPS"],
        min_free_bytes=app.config["MIN_FREE_DISK"] or 0,
    )
    app.url_value_preprocessor(_pull)
    app.after_request(_after)
    app.url_defaults(_fill)
    app.add_template_global(in_group_space)
    app.add_template_global(many, "many_groups")
    app.add_template_global(current, "group_id")
    app.add_template_global(private, "private_reading")
