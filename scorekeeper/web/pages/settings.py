"""The settings page: the language, the digits and the table's own words for the contracts,
each kept on the phone in a cookie."""

from __future__ import annotations

from typing import Callable, Iterable
from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import ValidationError

from ...engine.contracts import ALL_CONTRACTS, CONTRACT_LABELS
from ...languages import LANGUAGES
from ...store import groupsettings, ratings, seasons
from ...store.refused import Refused
from ..making import ratingview
from ..access import rights
from ..access.database import get_db
from ..making.flashes import flash_message
from ..making.messages import refusal
from ..making.i18n import COOKIE, COOKIE_AGE, DIGITS_COOKIE, current_language, local_path
from ..making.words import (
    LEGACY_COOKIE,
    LEGACY_SETS,
    LIMIT,
    SUGGESTIONS,
    clean_word,
    cookie_name,
    cookie_value,
    table_words,
    word_problem,
)

bp = Blueprint("settings", __name__)
#: The language and digits switches: they read and show nothing of any group, so on a box of
#: many groups they sit outside the groups' pages, for the front page too.
switches = Blueprint("switches", __name__)


#: Where a browser says a navigation came from (``Sec-Fetch-Site``), when a GET may change a
#: setting: a link of this site's own pages, or the phone itself (an address typed, a
#: bookmark). A link on any other site, or a browser that does not say, gets a page that asks.
OWN_LINKS = frozenset({"same-origin", "none"})


def from_own_link() -> bool:
    """Did this GET come from one of the app's own links? Browsers say so in ``Sec-Fetch-Site``
    to HTTPS and to localhost; over plain HTTP on the local network they do not, and the link
    then sends the page's origin as ``Referer`` (``referrerpolicy="origin"`` on the link: the
    site's pages send none otherwise), which no other site can make a browser send."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site in OWN_LINKS
    referrer = urlsplit(request.headers.get("Referer", ""))
    return bool(referrer.netloc) and (referrer.scheme, referrer.netloc) == (
        request.scheme,
        request.host,
    )


class SwitchForm(FlaskForm):
    """Change the language or the digits (the address says to what), then go *next*."""

    next = HiddenField()


def _switch(cookie: str, value: str, allowed: Iterable[str], question: Callable[[], str]):
    """Keep *value* in *cookie* for the phone, when the request comes from this site: a POST
    with its form's token (CSRF is checked before any view), or a GET from one of its links."""
    if request.method == "POST":
        back = local_path(request.form.get("next"))
    else:
        back = local_path(request.args.get("next"))
    response = redirect(back, 303)
    if value not in allowed:
        return response
    if request.method == "GET" and not from_own_link():
        form = SwitchForm(formdata=None, next=back)
        return render_template("switch.html", form=form, back=back, question=question())
    response.set_cookie(cookie, value, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    return response


@switches.route("/lang/<code>", methods=["GET", "POST"])
def switch(code: str):
    return _switch(
        COOKIE,
        code,
        LANGUAGES,
        lambda: gettext(
            "A link asked to show the scorekeeper in %(choice)s on this phone.",
            choice="English" if code == "en" else "العربية",
        ),
    )


@switches.route("/digits/<style>", methods=["GET", "POST"])
def digits(style: str):
    return _switch(
        DIGITS_COOKIE,
        style,
        ("western", "arabic"),
        lambda: gettext(
            "A link asked to write numbers as %(choice)s on this phone.",
            choice="٠١٢٣٤٥٦٧٨٩" if style == "arabic" else "0123456789",
        ),
    )


@bp.get("/settings")
def show():
    return render_settings(settings_form(local_path(request.args.get("next"))))


# -- the group's seasons ----------------------------------------------------------------------
class SeasonForm(FlaskForm):
    """A season: its name and its first and last night (both included), or the first and the
    last night played between those two dates. The store checks them (store.seasons)."""

    name = StringField(lazy_gettext("Name of the season"))
    first_night = StringField(lazy_gettext("From"))
    last_night = StringField(lazy_gettext("To (included)"))
    from_nights = BooleanField(
        lazy_gettext("From the first to the last night played between these dates")
    )


@bp.post("/settings/seasons")
def save_season():
    """Keep a season for the whole group (any phone that may start games may); bad input gets
    the form back with the reason by each field and what was typed, nothing kept."""
    if not rights.may_start_games():
        abort(403, gettext(seasons.WHO_MAY))
    form = SeasonForm(prefix="season")
    words = settings_form(local_path(request.args.get("next")))
    if not form.validate():
        return render_settings(words, 400, form)
    found = seasons.problems(form.name.data, form.first_night.data, form.last_night.data)
    for key, exc in found.items():
        form[key].errors = [refusal(exc)]
    if found:
        return render_settings(words, 400, form)
    try:
        season_id = seasons.create(
            get_db(),
            form.name.data,
            form.first_night.data,
            form.last_night.data,
            from_nights=form.from_nights.data,
        )
    except Refused as exc:
        form.first_night.errors = [refusal(exc)]
        return render_settings(words, 400, form)
    return redirect(url_for("seasons.show", season_id=season_id), 303)


# -- the table's words ---------------------------------------------------------------------
def _check_word(form: FlaskForm, field: StringField) -> None:
    field.data = clean_word(field.data or "")
    problem = word_problem(field.data)
    if problem:
        raise ValidationError(gettext(problem, limit=LIMIT))


class WordsForm(FlaskForm):
    """One field per contract; an empty one means the language's usual word."""

    next = HiddenField()
    king_of_hearts = StringField(lazy_gettext("King of Hearts"), [_check_word])
    diamonds = StringField(lazy_gettext("Diamonds"), [_check_word])
    queens = StringField(lazy_gettext("Queens"), [_check_word])
    collections = StringField(lazy_gettext("Collections"), [_check_word])
    trex = StringField(lazy_gettext("Trex"), [_check_word])

    def contract_fields(self):
        """(contract, field, the words tables use for it) in the order of the contracts."""
        offered = SUGGESTIONS.get(current_language(), {})
        return [(c, self[c.value], offered.get(c, ())) for c in ALL_CONTRACTS]


def settings_form(back: str) -> WordsForm:
    """The form as the settings page first shows it: the table's words as they are now."""
    form = WordsForm(formdata=None, next=back)
    for contract, word in table_words().items():
        form[contract.value].data = word
    return form


def render_settings(form: WordsForm, status: int = 200, season_form: SeasonForm | None = None):
    back = local_path(form.next.data)
    return render_template(
        "settings.html",
        back=back,
        form=form,
        ratings_form=RatingsForm(),
        season_form=season_form or SeasonForm(formdata=None, prefix="season"),
        seasons=seasons.all_seasons(get_db()),
        switch_form=SwitchForm(formdata=None, next=request.full_path),
        may_change_ratings=rights.may_start_games(),
        digits=request.cookies.get(DIGITS_COOKIE, "western"),
        default_words={c: gettext(CONTRACT_LABELS[c]) for c in ALL_CONTRACTS},
    ), status


@bp.post("/settings/words")
def save_words():
    """Keep the table's words on this phone, for the page's language; bad ones are shown
    again with the reason, nothing kept."""
    form = WordsForm()
    if not form.validate():
        return render_settings(form, 400)
    words = {
        c: form[c.value].data
        for c in ALL_CONTRACTS
        if form[c.value].data and form[c.value].data != gettext(CONTRACT_LABELS[c])
    }
    language = current_language()
    response = redirect(url_for("settings.show", next=local_path(form.next.data)), 303)
    response.set_cookie(
        cookie_name(language),
        cookie_value(words),
        max_age=COOKIE_AGE,
        samesite="Lax",
        httponly=True,
    )
    if language in LEGACY_SETS:
        response.delete_cookie(LEGACY_COOKIE)
    flash_message("The contracts’ names are kept on this phone.")
    return response


# -- the group's ratings ---------------------------------------------------------------------
class RatingsForm(FlaskForm):
    """Turn the group's ratings on or off (the button pressed says which)."""

    next = HiddenField()


@bp.post("/settings/ratings")
def save_ratings():
    """Turn the ratings on (every finished game rated again) or off (shown nowhere), for the
    whole group: any phone that may start games may."""
    form = RatingsForm()
    back = local_path(form.next.data)
    if not rights.may_start_games():
        abort(
            403,
            gettext(
                "Ratings belong to the whole group: only a phone that opened the "
                "group’s join link can turn them on or off."
            ),
        )
    if not form.validate() or not groupsettings.fits(
        ratings.SETTING, request.form.get("ratings", "")
    ):
        abort(400, gettext("This form is incomplete. Open Settings again."))
    on = request.form["ratings"] == "on"
    if on != ratingview.on():
        ratings.set_enabled(get_db(), on)
    if on:
        flash_message("Ratings are on: every finished game is rated.")
    else:
        flash_message("Ratings are off: they are shown nowhere.")
    return redirect(url_for("settings.show", next=back), 303)
