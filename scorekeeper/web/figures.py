"""How the statistics pages print numbers: averages, shares, dates. Template filters only."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint

MINUS = "\u2212"


def average(value: float | None, places: int = 1) -> str:
    """An average with its sign: +12.5, −3.3, 0; a dash when there is nothing to average."""
    if value is None:
        return "–"
    rounded = round(value, places)
    text = f"{abs(rounded):.{places}f}"
    if rounded > 0:
        return f"+{text}"
    if rounded < 0:
        return f"{MINUS}{text}"
    return f"{0:.{places}f}"


def share(part: int | None, whole: int | None) -> str:
    """A share as a whole percentage: 42%; a dash for 0 of 0."""
    if not whole:
        return "–"
    return f"{round(100 * (part or 0) / whole)}%"


def night_label(value: str | None) -> str:
    """2026-11-20 as "Fri 20 Nov 2026"."""
    if not value:
        return "Undated"
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        return value
    return f"{day:%a} {day.day} {day:%b %Y}"


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def install(bp: Blueprint) -> None:
    """Make the filters available to every template, from a blueprint that uses them."""
    for function in (average, share, night_label, ordinal):
        bp.add_app_template_filter(function)
