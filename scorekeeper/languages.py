"""The languages the app speaks, in one place for the web pages, the printed sheet and the
command line: which there are, which run right to left, where their catalog is, how each
separates the items of a list, and the Arabic-Indic digits a phone may ask for."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from .engine.contracts import Contract
from .engine.messages import RULES_TEXT
from .engine.rules import HouseRules

LANGUAGES: tuple[str, ...] = ("en", "ar")
RTL_LANGUAGES = frozenset({"ar"})
#: The catalogs (``ar/LC_MESSAGES/messages.po`` and ``.mo``); English is the messages themselves.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
#: How a language separates a list's items, and a description's parts.
SEPARATORS: dict[str, tuple[str, str]] = {"en": (", ", "; "), "ar": ("، ", "؛ ")}
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def rules_line(rules: HouseRules, lang: str, say: Callable[[str], str],
               name: Callable[[Contract], str]) -> str:
    """The house rules in one line in *lang*: the engine's parts (``summary_parts``), each
    template said by *say* (a catalog's gettext) and each contract named by *name*."""
    items, parts = SEPARATORS.get(lang, SEPARATORS["en"])

    def part(code: str, params: Mapping[str, Any]) -> str:
        values = {key: items.join(name(c) for c in value) if key == "contracts" else value
                  for key, value in params.items()}
        try:
            return say(RULES_TEXT[code]).format(**values)
        except (KeyError, IndexError, ValueError):
            return RULES_TEXT.get(code, code).format(**values)

    return parts.join(part(code, params) for code, params in rules.summary_parts())
