"""The front page of a box that hosts many groups (``serve --groups``): what the app is, in
both languages, the groups this phone belongs to, and "Start a group": a name and a language,
then the group's page with its join link. Starting groups is limited per client address, and
where the operator chose ``--groups=invite``, it needs the operator's invitation link."""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, g, redirect, render_template, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import StringField

from ...store import groups as store_groups
from ...store.keys import install_key
from ...store.refused import Refused
from ..access import groupspace
from ..making.flashes import flash_words
from ..making.i18n import current_language, speak_the_groups_language
from ..making.messages import refusal
from ..access.phonestate import joined
from ..access.rights import ADMIN_KEY, admit, client, grant_install

bp = Blueprint("front", __name__)
INVITED = "invited"


#: The languages a group may speak, as the form offers them.
LANGUAGES = (("en", "English"), ("ar", "العربية"))


class StartForm(FlaskForm):
    name = StringField(lazy_gettext("The group’s name"))
    lang = StringField(lazy_gettext("Its language"), default="en")


def my_groups() -> list[store_groups.Group]:
    """The groups this phone is a member of (as its cookie lists them)."""
    ids = joined()
    found = (groupspace.host().find(i) for i in ids if store_groups.GROUP_ID.fullmatch(i))
    return [group for group in found if group is not None]


def may_start() -> bool:
    if current_app.config["GROUPS"] != "invite":
        return True
    tag = session.get(INVITED)
    return isinstance(tag, str) and hmac.compare_digest(tag, groupspace.host().invite_key()[:12])


def _page(form: StartForm | None = None, status: int = 200):
    if form is None:
        form = StartForm(formdata=None, data={"lang": current_language()})
        full = groupspace.host().full() if may_start() else None
        if full:  # said before anyone types a name
            form.form_errors.append(refusal(Refused(full)))
    if form.lang.data not in dict(LANGUAGES):
        form.lang.data = "en"
    return render_template(
        "front.html", form=form, mine=my_groups(), languages=LANGUAGES, may_start=may_start()
    ), status


@bp.get("/")
def index():
    return _page()


@bp.get("/invite/<key>")
def invite(key: str):
    """The operator's invitation: this phone may start a group."""
    if not hmac.compare_digest(key, groupspace.host().invite_key()):
        abort(404)
    session[INVITED] = key[:12]
    session.permanent = True
    return redirect(url_for("front.index"), 303)


@bp.post("/groups/new")
def start():
    form = StartForm()
    if not may_start():
        abort(
            403,
            _(
                "Starting a group here is by invitation: ask whoever runs this box for "
                "the invitation link."
            ),
        )
    name = (form.name.data or "").strip()
    problem = store_groups.name_problem(name)
    if not problem and any(g.name.casefold() == name.casefold() for g in my_groups()):
        problem = _(
            "This phone is already in a group called %(name)s: give the new one another name.",
            name=name,
        )
    elif problem:
        problem = _(problem)
    if not form.validate() or problem:
        form.name.errors = [problem or _("Send the form again.")]
        return _page(form, 400)
    try:
        lang = form.lang.data if form.lang.data in dict(LANGUAGES) else "en"
        group = groupspace.host().create(name, lang, client=client())
    except Refused as exc:
        if exc.message == store_groups.LIMIT_REACHED:  # counted with the start, at once
            form.name.errors = [
                _(
                    "This address has started as many groups as it may for now. "
                    "Try again in an hour."
                )
            ]
            return _page(form, 429)
        if exc.message in (store_groups.BOX_FULL, store_groups.DISK_FULL):  # the box's bounds
            form.form_errors.append(refusal(exc))
            return _page(form, 503)
        form.name.errors = [refusal(exc)]
        return _page(form, 400)
    g.group_id, g.group_path = group.id, str(group.path)
    from ..access.database import get_db

    admit("start")
    grant_install(ADMIN_KEY, install_key(get_db(), ADMIN_KEY))
    flash_words(
        lazy_gettext(
            "Your group is ready. Share its join link with the players: whoever opens it joins."
        )
    )
    return speak_the_groups_language(redirect(url_for("group.show", group=group.id), 303))
