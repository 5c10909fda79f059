"""A season printed: its poster, one page with the standings, the champion and the rule that
names them, the best night and the hall of records.

Plain data in, PDF out, as a club night's sheets are (``printing/clubnight.py``): the web wing
hands over the rows and records the store made (``store.seasons``); this wing never reads the
database, and says the rules of the records with its own catalog.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .render import page_html, page_pdf


def season_html(
    *,
    name: str,
    first_night: str,
    last_night: str,
    rows: Sequence[Mapping[str, Any]],
    records: Sequence[Mapping[str, Any]],
    best_night: Mapping[str, Any] | None,
    rule: str,
    record_rules: Sequence[str],
    ties: str,
    ratings: bool,
    **layout: Any,
) -> str:
    """The season's poster: *rows* best first (store.seasons.standings), its *records* in the
    order the hall lists them (each with its ``title`` and the msgids it is ``shown`` with, as
    ``store.seasons.RECORDS`` declares them), and the rules of the records (msgids). *layout*
    as ``render.page_html`` takes it."""
    return page_html(
        "season.html",
        **layout,
        season_name=name,
        first_night=first_night,
        last_night=last_night,
        rows=list(rows),
        records=list(records),
        best_night=best_night,
        rule=rule,
        record_rules=list(record_rules),
        ties=ties,
        ratings=ratings,
    )


def render_season_pdf(**kwargs: Any) -> bytes:
    return page_pdf(season_html, **kwargs)
