"""The group's own page: its join link to share (with a QR code), and for the phone that holds
the group's admin rights, its members (with a way to end one membership or all), a new join
link, the group's name, everything exported, and, on a box of many groups, deleting the group
with its file."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import StringField

from ...store import groups as store_groups
from ...store import members
from ...store.keys import install_key, rotate_install_key
from .. import groupspace as groups
from ..database import get_db
from ..flashes import flash_words
from ..deleted import delete_current
from ..hosting import external_url
from ..rights import JOIN_KEY, MEMBER, is_admin, require_group_admin
from .live import qr_svg

bp = Blueprint("group", __name__, url_prefix="/group")


@bp.before_request
def only_where_reading_is_private():
    """A laptop's or a Pi's one group has no join link and no members: no such page there."""
    if not groups.private():
        abort(404)


class NameForm(FlaskForm):
    name = StringField(lazy_gettext("The group’s name"))


class DeleteForm(FlaskForm):
    confirm = StringField(lazy_gettext("Type the group’s name to delete it"))


def group_name() -> str:
    return store_groups.group_setting(get_db(), "group_name") or _("Our group")


def _page(
    *, name_form: NameForm | None = None, delete_form: DeleteForm | None = None, status: int = 200
):
    join_url = external_url("access.join_link", key=install_key(get_db(), JOIN_KEY))
    admin = is_admin()
    response = current_app.make_response(
        (
            render_template(
                "group/show.html",
                name=group_name(),
                join_url=join_url,
                admin=admin,
                members=members.members(get_db()) if admin else [],
                own=members.member_id(get_db(), session.get(groups.session_key(MEMBER))),
                name_form=name_form or NameForm(formdata=None, data={"name": group_name()}),
                delete_form=delete_form or DeleteForm(formdata=None),
                many=groups.many(),
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
    if not members.end(get_db(), member_id):
        abort(404)
    flash_words(
        lazy_gettext("That phone is no longer a member: it reads nothing of the group now.")
    )
    return redirect(url_for("group.show"), 303)


@bp.post("/members/end-all")
@require_group_admin
def end_all():
    if not FlaskForm().validate():
        abort(400)
    count = members.end_all(get_db(), keep=session.get(groups.session_key(MEMBER)))
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
    db = get_db()
    with db.atomic():
        db.execute("insert or replace into settings (key, value) values ('group_name', ?)", [name])
    if groups.many():
        groups.host().rename(groups.current() or "", name)
    flash_words(lazy_gettext("The group’s name is changed."))
    return redirect(url_for("group.show"), 303)


@bp.post("/delete")
@require_group_admin
def delete():
    """Delete the group with its file: only with its name typed, and only on a box of many
    groups (a laptop's one group is its database file)."""
    if not groups.many():
        abort(404)
    form = DeleteForm()
    typed = (form.confirm.data or "").strip()
    if not form.validate() or typed.casefold() != group_name().casefold():
        form.confirm.errors = [_("Type the group’s name exactly as it is, to be sure.")]
        return _page(delete_form=form, status=400)
    group = groups.current() or ""
    delete_current()
    for key in [k for k in session if k.startswith(group + ":")]:
        session.pop(key, None)
    flash_words(lazy_gettext("The group is deleted, with all its games."))
    return redirect(url_for("front.index"), 303)
