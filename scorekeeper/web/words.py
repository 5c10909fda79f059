"""A table's own words for the contracts.

Tables call the contracts by different names: شيخ الكبة or الختيار, الديناري or الدينار,
"King of Hearts" or "Sheikh Koobbah". The catalog holds each language's default; a phone keeps
the table's own words in a cookie per language (``words_ar``, ``words_en``), set on the settings
page, and every page, the rules line and the printed sheet use them.
"""
from __future__ import annotations

import unicodedata
from urllib.parse import parse_qsl, urlencode

from flask import (Blueprint, Flask, g, has_request_context, redirect, render_template,
                   request, url_for)
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import ValidationError

from ..engine.contracts import ALL_CONTRACTS, CONTRACT_LABELS, Contract
from .flashes import flash_message
from .i18n import COOKIE_AGE, DIGITS_COOKIE, current_language, local_path

COOKIE_PREFIX = "words_"
#: The older cookie, holding the name of a set of words (only ``khityar`` was ever offered).
LEGACY_COOKIE = "words"
LEGACY_SETS: dict[str, dict[str, dict[Contract, str]]] = {
    "ar": {"khityar": {Contract.KING_OF_HEARTS: "الختيار"}},
}
#: The longest word a table may give a contract: it must fit a column of the grid and the sheet.
LIMIT = 24

#: What tables say, by language, the catalog's default first (the seeds: 001's transliterated
#: names, 004's Arabic passage). The settings page offers them; a table may type its own.
SUGGESTIONS: dict[str, dict[Contract, tuple[str, ...]]] = {
    "ar": {
        Contract.KING_OF_HEARTS: ("شيخ الكبة", "الختيار", "ختيار الكبة"),
        Contract.DIAMONDS: ("الديناري", "الدينار"),
        Contract.QUEENS: ("البنات",),
        Contract.COLLECTIONS: ("اللطش", "اللطوش"),
        Contract.TREX: ("تركس", "التريكس", "تريكس"),
    },
    "en": {
        Contract.KING_OF_HEARTS: ("King of Hearts", "Sheikh Koobbah", "Khityar"),
        Contract.DIAMONDS: ("Diamonds", "Dinari"),
        Contract.QUEENS: ("Queens", "Banat", "Girls"),
        Contract.COLLECTIONS: ("Collections", "Eltoosh", "Tricks"),
        Contract.TREX: ("Trex", "Trix"),
    },
}


def cookie_name(language: str) -> str:
    return COOKIE_PREFIX + language


def clean_word(text: str) -> str:
    """A word as typed, tidied: NFC, single spaces."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def word_problem(text: str) -> str | None:
    """Why *text* (tidied) can't name a contract, in English (the caller translates), or None."""
    if len(text) > LIMIT:
        return "at most %(limit)s letters"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") and ch not in "\u200c\u200d"
           for ch in text):
        return "letters only, no control characters"
    return None


def parse(value: str) -> dict[Contract, str]:
    """A cookie's words; anything unknown or unfit is left out."""
    known = {c.value: c for c in ALL_CONTRACTS}
    out: dict[Contract, str] = {}
    for key, word in parse_qsl(value or "", keep_blank_values=False)[:len(known)]:
        word = clean_word(word)
        if key in known and word and word_problem(word) is None:
            out[known[key]] = word
    return out


def cookie_value(words: dict[Contract, str]) -> str:
    return urlencode([(c.value, words[c]) for c in ALL_CONTRACTS if words.get(c)])


def _read(language: str) -> dict[Contract, str]:
    own = request.cookies.get(cookie_name(language))
    if own is not None:
        return parse(own)
    return dict(LEGACY_SETS.get(language, {}).get(request.cookies.get(LEGACY_COOKIE, ""), {}))


def table_words() -> dict[Contract, str]:
    """The table's own words for this page's language (none outside a request)."""
    if not has_request_context():
        return {}
    language = current_language()
    cached = g.get("_table_words")
    if cached is None or cached[0] != language:
        cached = (language, _read(language))
        g._table_words = cached
    return cached[1]


def words_key() -> tuple[tuple[str, str], ...]:
    """The table's words as a hashable key (for caches of text that names contracts)."""
    return tuple((c.value, w) for c, w in table_words().items())


# The settings page's form


bp = Blueprint("words", __name__)


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


def render_settings(form: WordsForm, status: int = 200):
    back = local_path(form.next.data)
    return render_template("settings.html", back=back, form=form,
                           digits=request.cookies.get(DIGITS_COOKIE, "western"),
                           default_words={c: gettext(CONTRACT_LABELS[c]) for c in ALL_CONTRACTS}
                           ), status


@bp.post("/settings/words")
def save():
    """Keep the table's words on this phone, for the page's language; bad ones are shown
    again with the reason, nothing kept."""
    form = WordsForm()
    if not form.validate():
        return render_settings(form, 400)
    words = {c: form[c.value].data for c in ALL_CONTRACTS
             if form[c.value].data and form[c.value].data != gettext(CONTRACT_LABELS[c])}
    language = current_language()
    response = redirect(url_for("i18n.settings", next=local_path(form.next.data)), 303)
    response.set_cookie(cookie_name(language), cookie_value(words), max_age=COOKIE_AGE,
                        samesite="Lax", httponly=True)
    if language in LEGACY_SETS:
        response.delete_cookie(LEGACY_COOKIE)
    flash_message("The contracts’ names are kept on this phone.")
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
