"""Languages: Arabic and English through Flask-Babel.

The language follows a ``lang`` cookie set by the switch on every page, then the browser's
preference, then English. Arabic pages are right to left.
"""

from __future__ import annotations

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_locale, get_translations
from markupsafe import Markup

from ...languages import LANGUAGES, RTL_LANGUAGES, TRANSLATIONS, digits_text, number_text
from ..access.security import safe_path

COOKIE = "lang"
DIGITS_COOKIE = "digits"
COOKIE_AGE = 400 * 24 * 3600  # a year and more: remembered on that device


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def speak_the_groups_language(response):
    """A phone that joins a group, and has not chosen a language, reads the group's."""
    from ...store.groups import group_setting
    from ..access.database import get_db

    lang = group_setting(get_db(), "group_lang")
    if lang in LANGUAGES and COOKIE not in request.cookies:
        response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    return response


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else "en"


def local_path(target: str | None) -> str:
    """*target* if it is a path on this site, else the home page."""
    return safe_path(target) or "/"


def num(value: object) -> str:
    """A number as text, in Arabic-Indic digits when the device asked for them."""
    return digits_text(value, has_request_context() and _arabic_digits())


def figure(
    value: float, *, places: int = 0, percent: bool = False, plus: bool = False, trim: bool = False
) -> str:
    """An average or a share in the device's digits, with the separators and the percent sign
    that go with them (``languages.number_text``): "12.5", "42%"; "١٢٫٥", "٤٢٪؜"."""
    return number_text(
        value,
        has_request_context() and _arabic_digits(),
        places=places,
        percent=percent,
        plus=plus,
        trim=trim,
    )


def isolated(name: str) -> Markup:
    """A name (a player's, in any script) for a page: escaped and isolated in ``<bdi>``, so
    Arabic and Latin names read right in either direction."""
    return Markup("<bdi>%s</bdi>") % name


def _arabic_digits() -> bool:
    """Whether this device asked for Arabic-Indic digits; read once per request (a page
    writes a hundred numbers)."""
    arabic = g.get("_arabic_digits")
    if arabic is None:
        arabic = g._arabic_digits = request.cookies.get(DIGITS_COOKIE) == "arabic"
    return arabic


def here() -> str:
    """This page's address on the site, with its query: where the language switch and the
    settings link send the phone back to."""
    path = request.full_path if request.query_string else request.path
    return path.rstrip("?") if path.endswith("?") else path


def page_translations():
    """The catalog of this request's language, looked up once per request: the templates ask
    for it for every word, and Flask-Babel's own look-up walks its context each time."""
    translations = g.get("_page_translations")
    if translations is None:
        translations = g._page_translations = get_translations()
    return translations


def _install_page_translations(app: Flask) -> None:
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: page_translations().ugettext(s),
        ngettext=lambda s, p, n: page_translations().ungettext(s, p, n),
        pgettext=lambda c, s: page_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: page_translations().unpgettext(c, s, p, n),
        newstyle=True,
    )


def init_app(app: Flask) -> None:
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS)  # the package's catalog
    Babel(app, locale_selector=select_locale)
    _install_page_translations(app)
    app.add_template_filter(num)

    @app.context_processor
    def language() -> dict[str, object]:
        lang = current_language()
        return {
            "lang": lang,
            "text_dir": "rtl" if lang in RTL_LANGUAGES else "ltr",
            "other_lang": "en" if lang == "ar" else "ar",
            "here": here(),
        }
