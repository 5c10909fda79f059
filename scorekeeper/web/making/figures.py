"""How the statistics pages print numbers: averages, shares, dates. Template filters only.

Each filter writes in the page's language: dates with the month's name in that language, digits
as the device chose them (see :func:`.i18n.num`).
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint
from flask_babel import format_date, gettext
from markupsafe import Markup

from .i18n import figure, num

#: A date on the history and player pages: "Fri 20 Nov 2026", "الجمعة 20 نوفمبر 2026".
DATE_PATTERN = "EEE d MMM y"


def average(value: float | None, places: int = 1) -> Markup:
    """An average with its sign: +12.5, −3.3, 0; a dash when there is nothing to average.
    Isolated left to right, so that the sign stays on the number's left in an Arabic line."""
    if value is None:
        return Markup("–")
    return Markup('<span class="ltr">%s</span>') % figure(value, places=places, plus=True)


def share(part: int | None, whole: int | None) -> str:
    """A share as a whole percentage: 42% (in Arabic-Indic digits ٤٢٪؜); a dash for 0 of 0."""
    if not whole:
        return "–"
    return figure(round(100 * (part or 0) / whole), percent=True)


def decimal(value: float, places: int = 1) -> str:
    """A figure without a sign (an average place: 2.50, ٢٫٥٠), to *places* decimals."""
    return figure(value, places=places)


def night_label(value: str | None) -> str:
    """2026-11-20 as "Fri 20 Nov 2026" (in Arabic "الجمعة 20 نوفمبر 2026")."""
    if not value:
        return gettext("Undated")
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        return value
    return num(format_date(day, DATE_PATTERN))


def ordinal(n: int) -> str:
    """A place at the table: 1st to 4th (the only places there are), then 5th and on."""
    places = {1: gettext("1st"), 2: gettext("2nd"), 3: gettext("3rd"), 4: gettext("4th")}
    return places.get(n) or num(f"{n}th")


def isolated(name: str) -> str:
    """A name inside plain text (a page title, an image's description), where ``<bdi>`` cannot
    go: set apart by the Unicode isolates that ``<bdi>`` stands for (FSI ... PDI)."""
    return f"\u2068{name}\u2069"


def install(bp: Blueprint) -> None:
    """Make the filters available to every template, from a blueprint that uses them."""
    for function in (average, share, decimal, night_label, ordinal, isolated):
        bp.add_app_template_filter(function)
