"""Names that look alike: the characters a name may not hide, and the form a name takes once
what cannot be seen, and the letters of other scripts that look like Latin ones, are set aside
(its *skeleton*).

Four players that all read "Aya" were once accepted: one with a zero-width space in it, one
with a Cyrillic А, one with a right-to-left override, one plain. Hidden characters inside a
name are refused (``gamefile.name_problem``); a name whose skeleton is a known player's is
asked about ("Aya is already a player: the same person?").

The skeleton is NFKC (fullwidth and mathematical letters become plain ones), then case folded,
then each Cyrillic or Greek letter that looks like a Latin one replaced by it. The map is the
few dozen letters of Unicode's confusables list (UTS #39) that look like a Latin letter,
which is what a look-alike of a name a group writes in Latin or Arabic letters is made of:
the whole list (and a dependency to ship it) would add marks and symbols no name holds.
"""

from __future__ import annotations

import unicodedata

#: Letters that draw nothing although Unicode counts them as letters or symbols (the Hangul
#: fillers, the Braille blank, the combining grapheme joiner).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")

#: Cyrillic and Greek letters (as case folding leaves them) and the Latin letter each looks
#: like, in the capital or the small form a name writes it in.
CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "ë",
        "з": "3",
        "һ": "h",
        "і": "i",
        "ї": "ï",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "с": "c",
        "ѕ": "s",
        "т": "t",
        "у": "y",
        "ԝ": "w",
        "х": "x",
        "ү": "y",
        "ь": "b",
        # Greek
        "α": "a",
        "β": "b",
        "ϲ": "c",
        "ε": "e",
        "η": "h",
        "ι": "i",
        "κ": "k",
        "μ": "m",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        "ζ": "z",
        # Latin letters that look like plainer ones
        "ı": "i",
        "ȷ": "j",
        "ɑ": "a",
        "ɡ": "g",
        "ℓ": "l",
    }
)


def hidden(char: str) -> bool:
    """Does *char* change how a name reads without showing itself: a format character
    (direction marks, overrides and isolates, zero-width spaces and joiners, the soft hyphen)
    or a blank letter?"""
    return unicodedata.category(char) == "Cf" or char in BLANK_LETTERS


def has_hidden(name: str) -> bool:
    return any(hidden(c) for c in name)


def skeleton(name: str) -> str:
    """What *name* looks like: the same for two names a reader cannot tell apart."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in text if not hidden(c)).translate(CONFUSABLES)
    return " ".join(unicodedata.normalize("NFC", text).split())
