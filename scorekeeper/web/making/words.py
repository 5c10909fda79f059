"""A table's own words for the contracts.

Tables call the contracts by different names: شيخ الكبة or الختيار, الديناري or الدينار,
"King of Hearts" or "Sheikh Koobbah". The catalog holds each language's default; a phone keeps
the table's own words in a cookie per language (``words_ar``, ``words_en``), set on the settings
page, and every page and the rules line use them. The settings page that sets them is
``pages/settings.py``. The printed sheets and images do not: they name the contracts in the
language's usual words, so that what a render is made of is only what the server offers (a
language, digits, a paper), and a cookie's free text can never make a new render
(``printer.py``).
"""

from __future__ import annotations

import unicodedata
from urllib.parse import parse_qsl, urlencode

from flask import g, has_request_context, request

from ...engine.contracts import ALL_CONTRACTS, Contract
from ...engine.messages import N_
from .i18n import current_language

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
        return N_("at most %(limit)s letters")
    if any(
        unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") and ch not in "\u200c\u200d"
        for ch in text
    ):
        return N_("letters only, no control characters")
    return None


def parse(value: str) -> dict[Contract, str]:
    """A cookie's words; anything unknown or unfit is left out."""
    known = {c.value: c for c in ALL_CONTRACTS}
    out: dict[Contract, str] = {}
    for key, word in parse_qsl(value or "", keep_blank_values=False)[: len(known)]:
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
