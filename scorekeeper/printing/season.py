"""A season printed: its poster, one page with the standings, the champion and the rule that
names them, the best night and the hall of records.

Plain data in, PDF out, as a club night's sheets are (``printing/clubnight.py``): the web wing
hands over the rows and records the store made (``store.seasons``); this wing never reads the
database, and says the rules of the records with its own catalog.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .language import language
from .render import _RENDERER, _direction, checked_digits, environment, paper_size


def season_html(
    *,
    name: str,
    first_night: str,
    last_night: str,
    rows: Sequence[Mapping[str, Any]],
    records: Sequence[Mapping[str, Any]],
    best_night: Mapping[str, Any] | None,
    rule: str,
    record_titles: Mapping[str, str],
    record_rules: Mapping[str, str],
    ties: str,
    ratings: bool,
    lang: str = "en",
    paper: str = "A4",
    density: int = 0,
    digits: str = "western",
) -> str:
    """The season's poster: *rows* best first (store.seasons.standings), its *records* in the
    order the hall lists them, each with the rule that *record_rules* states for its kind."""
    return (
        environment(lang)
        .get_template("season.html")
        .render(
            season_name=name,
            first_night=first_night,
            last_night=last_night,
            rows=list(rows),
            records=list(records),
            best_night=best_night,
            rule=rule,
            record_titles=dict(record_titles),
            record_rules=dict(record_rules),
            ties=ties,
            ratings=ratings,
            page_size=paper_size(paper),
            density=density,
            direction=_direction(None, lang),
            digits=checked_digits(digits),
        )
    )


def render_season_pdf(*, lang: str = "en", **kwargs: Any) -> bytes:
    lang = language(lang)
    return _RENDERER.pdf(lambda density: season_html(lang=lang, density=density, **kwargs))
