"""A club night printed: one round's seating and the night's standings, each on one page.

Plain data in, PDF out: the web wing hands over the names, tables and standings the store
made (this wing never reads the database), and the words come from the same catalog. Each
``*_html`` takes the sheet's layout (``lang``, ``paper``, ``density``, ``digits``) as
``render.page_html`` does.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .render import page_html, page_pdf


def seating_html(
    *,
    title: str,
    night: str,
    round_number: int,
    rounds: int,
    tables: Sequence[Sequence[str]],
    sitting_out: Sequence[str] = (),
    partnership: bool = False,
    **layout: Any,
) -> str:
    """A round's seating: each table's four in seat order, and who sits the round out."""
    return page_html(
        "club_seating.html",
        **layout,
        title=title,
        night=night,
        round_number=round_number,
        rounds=rounds,
        tables=[{"number": n, "players": list(four)} for n, four in enumerate(tables, 1)],
        sitting_out=list(sitting_out),
        partnership=partnership,
    )


def standings_html(
    *,
    title: str,
    night: str,
    rows: Sequence[Mapping[str, Any]],
    rule: str,
    rounds_played: int,
    rounds: int,
    over: bool,
    **layout: Any,
) -> str:
    """The night's standings, best first, its champion and the rule that names them; with
    *rounds* 0, a night of ordinary games (no rounds, no club)."""
    return page_html(
        "club_standings.html",
        **layout,
        title=title,
        night=night,
        rows=list(rows),
        rule=rule,
        played=rounds_played,
        rounds=rounds,
        over=over,
    )


def render_seating_pdf(**kwargs: Any) -> bytes:
    return page_pdf(seating_html, **kwargs)


def render_standings_pdf(**kwargs: Any) -> bytes:
    return page_pdf(standings_html, **kwargs)
