"""How the store says no: an English message marked for the catalog with ``N_``, its values,
and the players' names it holds, for a page (or the command line) to say in its language."""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Marks *message* for the catalog; the page that shows it translates it."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message and its plural for the catalog (``babel.cfg`` names this marker); the
    page that shows them says them with ``ngettext``."""
    return singular, plural


class Refused(Exception):
    """Why a change cannot be made: *message* with ``%(key)s`` placeholders for *values*, and
    for *names* (players' names, which a page isolates)."""

    def __init__(self, message: str, *, names: dict[str, str] | None = None, **values: Any):
        super().__init__(message % {**values, **(names or {})})
        self.message = message
        self.values = values
        self.names = dict(names or {})
