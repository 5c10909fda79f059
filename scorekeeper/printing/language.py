"""The language a sheet is printed in, from the same catalog as the web pages.

The web and the command line both print through here: the catalog in
``scorekeeper/translations`` is loaded with Babel's own :class:`~babel.support.Translations`, so
no Flask application or request is needed.
"""

from __future__ import annotations

import gettext as _gettext
import re
from functools import lru_cache
from typing import Mapping

from babel.support import Translations
from markupsafe import Markup, escape

from ..languages import LANGUAGES, RTL_LANGUAGES, TRANSLATIONS


#: Cards (K♥, Q♠, 7♥, 2s) and signed numbers (−150, +25, -15): left to right in any paragraph.
_LTR_BITS = re.compile(r"(?:10|١٠|[2-9٢-٩AKQJ])[♠♥♦♣]|[−+\-]\d+(?:/[−+\-]?\d+)*")
_SIGNED = re.compile(r"[−+\-]?\d+")


def language(lang: str | None) -> str:
    """*lang* if the sheet can be printed in it, else ValueError."""
    lang = (lang or "en").lower()
    if lang not in LANGUAGES:
        raise ValueError(f"a scoresheet is printed in {' or '.join(LANGUAGES)}, not {lang!r}")
    return lang


def is_rtl(lang: str) -> bool:
    return lang in RTL_LANGUAGES


@lru_cache(maxsize=None)
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog of *lang*; English is the messages themselves."""
    if language(lang) == "en":
        return _gettext.NullTranslations()
    return Translations.load(str(TRANSLATIONS), [lang])


class Renamed(_gettext.NullTranslations):
    """A catalog where some messages have the table's own words (a contract's local name)."""

    def __init__(self, base: _gettext.NullTranslations, names: Mapping[str, str]):
        super().__init__()
        self.names = dict(names)
        self.add_fallback(base)

    def gettext(self, message: str) -> str:
        return self.names.get(message) or super().gettext(message)


def words_for(lang: str, names: Mapping[str, str] | None = None) -> _gettext.NullTranslations:
    """The catalog of *lang*, with *names* (msgid to the table's word) put first."""
    base = translations(lang)
    return Renamed(base, names) if names else base


def isolate_ltr(text: object) -> Markup:
    """*text* escaped, its cards and signed numbers each kept left to right (``<bdi dir=ltr>``).

    In an Arabic line "K♥" would otherwise show as "♥K" and "-15" as "15-". A run of values
    ("+200/+150/+100/+50") is kept whole and each of its numbers isolated too: printed in
    Arabic-Indic digits, which read as right-to-left numbers, the signs and slashes between
    them would otherwise turn around ("+٥٠+/١٠٠...").
    """
    return Markup(_LTR_BITS.sub(_isolated, str(escape(text))))


def _isolated(match: re.Match) -> str:
    bit = match.group(0)
    if "/" in bit:
        bit = _SIGNED.sub(lambda m: f'<bdi dir="ltr">{m.group(0)}</bdi>', bit)
    return f'<bdi dir="ltr">{bit}</bdi>'
