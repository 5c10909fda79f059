"""The languages the app speaks, in one place for the web pages, the printed sheet and the
command line: which there are, which run right to left, where their catalog is, how each
separates the items of a list, and the Arabic-Indic digits a phone may ask for."""
from __future__ import annotations

from pathlib import Path

LANGUAGES: tuple[str, ...] = ("en", "ar")
RTL_LANGUAGES = frozenset({"ar"})
#: The catalogs (``ar/LC_MESSAGES/messages.po`` and ``.mo``); English is the messages themselves.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
#: How a language separates a list's items, and a description's parts.
SEPARATORS: dict[str, tuple[str, str]] = {"en": (", ", "; "), "ar": ("، ", "؛ ")}
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
