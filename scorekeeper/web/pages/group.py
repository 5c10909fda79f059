"""The group's own page: its join link to share (with a QR code), and for the phone that holds
the group's admin rights, its members (with a way to end one membership or all), a new join
link, the admin link and a new one, the group's name, everything exported, and, on a box of
many groups, deleting the group with its file.

Ending a phone's membership takes back every right it holds in the group (``store.members``):
it then gets a stranger's 404 everywhere, its own games included. The last phone that holds
the admin rights cannot be ended. Since that phone may still know the join link, the admin
link, and the edit and view links of the games it held, the page then offers new ones."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import StringField

from ...store import groups as store_groups
from ...store import groupsettings, members
from ...store.keys import install_key, rotate_game_links, rotate_install_key
from ..access import groupspace
from ..access import phonestate
from ..access.database import get_db
from ..making.flashes import flash_words
from ..access.deleted import delete_current
from ..access.hosting import external_url
from ..making.qrcodes import qr_svg
from ..access.rights import (
    ADMIN_KEY,
    JOIN_KEY,
    KEY_TAG,
    MEMBER,
    can_edit,
    grant,
    grant_install,
    is_admin,
    require_group_admin,
)

bp = Blueprint("group", __name__, url_prefix="/group")


@bp.before_request
def only_where_reading_is_private():
    """A laptop's or a Pi's one group has no join link and no members: no such page there."""
    if not groupspace.private():
        abort(404)


class NameForm(FlaskForm):
    name = StringField(lazy_gettext("The group’s name"))


class KeepForm(FlaskForm):
    keep = StringField()


class DeleteForm(FlaskForm):
    confirm = StringField(lazy_gettext("Type the group’s name to delete it"))


def group_name() -> str:
    return store_groups.group_setting(get_db(), "group_name") or _("Our group")


#: The admin phone's state: what it may renew after ending a phone (the games' ids, and
#: whether the ended phone held the admin rights).
OFFER = "offer"


def admins() -> set[int]:
    """The memberships whose phone holds the admin rights now."""
    db = get_db()
    return members.admins(db, install_key(db, ADMIN_KEY)[:KEY_TAG])


def _offer() -> dict | None:
    offer = phonestate.get(OFFER)
    if not isinstance(offer, dict):
        return None
    games = offer.get("games")
    return {
        "games": [g for g in games if type(g) is int] if isinstance(games, list) else [],
        "admin": offer.get("admin") is True,
    }


def _page(
    *,
    name_form: NameForm | None = None,
    delete_form: DeleteForm | None = None,
    problem: str | None = None,
    status: int = 200,
):
    db = get_db()
    join_url = external_url("access.join_link", key=install_key(db, JOIN_KEY))
    admin = is_admin()
    response = current_app.make_response(
        (
            render_template(
                "group/show.html",
                name=group_name(),
                join_url=join_url,
                admin=admin,
                admin_url=external_url("access.admin_link", key=install_key(db, ADMIN_KEY))
                if admin
                else None,
                members=members.members(db) if admin else [],
                admins=admins() if admin else set(),
                own=members.member_id(db, phonestate.get(MEMBER)),
                offer=_offer() if admin else None,
                problem=problem,
                name_form=name_form or NameForm(formdata=None, data={"name": group_name()}),
                delete_form=delete_form or DeleteForm(formdata=None),
                many=groupspace.many(),
            ),
            status,
        )
    )
    response.headers["Cache-Control"] = "no-store"  # it carries the join link
    return response


@bp.get("")
def show():
    return _page()


@bp.get("/join.svg")
def join_qr():
    """The join link as a QR code, to scan off this phone's screen."""
    url = external_url("access.join_link", key=install_key(get_db(), JOIN_KEY))
    response = current_app.response_class(
        qr_svg(url, _("Scan to join the group")), mimetype="image/svg+xml"
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/join-link")
@require_group_admin
def rotate_join():
    if not FlaskForm().validate():
        abort(400)
    rotate_install_key(get_db(), JOIN_KEY)
    flash_words(
        lazy_gettext("A new join link: the old one lets no new phone in. The members stay members.")
    )
    return redirect(url_for("group.show"), 303)


@bp.post("/members/<int:member_id>/end")
@require_group_admin
def end_member(member_id: int):
    if not FlaskForm().validate():
        abort(400)
    holding = admins()
    if holding == {member_id}:
        return _page(
            problem=_(
                "That phone is the last one that holds the group’s admin rights: give "
                "another phone the admin link first, then end this one."
            ),
            status=409,
        )
    held = members.end(get_db(), member_id)
    if held is None:
        abort(404)
    phonestate.put(OFFER, {"games": held, "admin": member_id in holding})
    flash_words(
        lazy_gettext(
            "That phone is no longer a member: it reads nothing of the group now, not even "
            "the games it started."
        )
    )
    return redirect(url_for("group.show", _anchor="ended"), 303)


@bp.post("/ended/links")
@require_group_admin
def renew_ended_links():
    """After ending a phone: new links for the games it held (or keep them as they are)."""
    form = KeepForm()
    if not form.validate():
        abort(400)
    offer = _offer()
    phonestate.put(OFFER, None)
    if offer is None or form.keep.data:
        return redirect(url_for("group.show"), 303)
    db = get_db()
    for game_id in offer["games"]:
        mine = can_edit(game_id)
        key = rotate_game_links(db, game_id)
        if key is not None and mine:
            grant(game_id, key)
    flash_words(
        lazy_gettext(
            "New edit and view links for those games: the old ones open nothing now. Give the "
            "new ones from each game’s Phones page."
        )
    )
    return redirect(url_for("group.show"), 303)


@bp.post("/admin-link")
@require_group_admin
def rotate_admin():
    """A new admin link: the old one opens nothing, and every other phone that held the admin
    rights loses them (it stays a member); this phone keeps them."""
    if not FlaskForm().validate():
        abort(400)
    key = rotate_install_key(get_db(), ADMIN_KEY)
    grant_install(ADMIN_KEY, key)
    offer = _offer()
    if offer is not None:
        phonestate.put(OFFER, {**offer, "admin": False})
    flash_words(
        lazy_gettext(
            "A new admin link: the old one opens nothing now, and only this phone holds the "
            "admin rights. Give the new link to whoever should hold them too."
        )
    )
    return redirect(url_for("group.show", _anchor="admin-link"), 303)


@bp.post("/members/end-all")
@require_group_admin
def end_all():
    if not FlaskForm().validate():
        abort(400)
    count = members.end_all(get_db(), keep=phonestate.get(MEMBER))
    flash_words(lazy_gettext("Every other phone is no longer a member (%(count)s).", count=count))
    return redirect(url_for("group.show"), 303)


@bp.post("/name")
@require_group_admin
def rename():
    form = NameForm()
    name = (form.name.data or "").strip()
    problem = store_groups.name_problem(name)
    if not form.validate() or problem:
        form.name.errors = [_(problem)] if problem else [_("Send the form again.")]
        return _page(name_form=form, status=400)
    groupsettings.put(get_db(), "group_name", name)
    if groupspace.many():
        groupspace.host().rename(groupspace.current() or "", name)
    flash_words(lazy_gettext("The group’s name is changed."))
    return redirect(url_for("group.show"), 303)


@bp.post("/delete")
@require_group_admin
def delete():
    """Delete the group with its file: only with its name typed, and only on a box of many
    groups (a laptop's one group is its database file)."""
    if not groupspace.many():
        abort(404)
    form = DeleteForm()
    typed = (form.confirm.data or "").strip()
    if not form.validate() or typed.casefold() != group_name().casefold():
        form.confirm.errors = [_("Type the group’s name exactly as it is, to be sure.")]
        return _page(delete_form=form, status=400)
    group = groupspace.current() or ""
    delete_current()
    phonestate.forget_group(group)
    flash_words(lazy_gettext("The group is deleted, with all its games."))
    return redirect(url_for("front.index"), 303)
