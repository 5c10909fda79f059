"""A tournament's bracket printed on one page (A4 across): a column a round, a box a match.

Plain data in, PDF out, as a club night's sheets: the web wing hands over the rounds the
bracket page shows (each match's entrants, their seeds, totals and who went through), and the
words come from the same catalog.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .render import page_html, page_pdf


def bracket_html(
    *,
    title: str,
    played_on: str,
    rounds: Sequence[Mapping[str, Any]],
    champion: str | None,
    rules: Sequence[str],
    problems: Sequence[str] = (),
    **layout: Any,
) -> str:
    """The bracket: every round (its matches, or none yet), the winner once there is one, and
    the rules the bracket keeps to (msgids, said in the sheet's language), and what it holds
    that cannot be (*problems*, said already). *layout* as ``render.page_html`` takes it."""
    return page_html(
        "tournament_bracket.html",
        **layout,
        title=title,
        played_on=played_on,
        rounds=list(rounds),
        champion=champion,
        rules=list(rules),
        problems=list(problems),
    )


def render_bracket_pdf(**kwargs: Any) -> bytes:
    return page_pdf(bracket_html, **kwargs)
