"""The result as tables share it: a few lines of plain text (the standings, the winner, a
night's totals) in the page's language and digits, each name set apart by Unicode isolates and
each signed number kept left to right, so that a chat app shows them right in either direction.
"""

from __future__ import annotations

from typing import Any, Sequence

from flask_babel import gettext

from ...engine.gamefile import GameScore
from .figures import isolated, night_label
from .i18n import RTL_LANGUAGES, current_language, num, page_translations
from .present import signed

#: Left-to-right isolate around a signed number inside a right-to-left line.
LRI, PDI = "\u2066", "\u2069"
#: Opens each line of a right-to-left text: its names and numbers are isolated, so without it
#: a line ("١. ⁨Dana⁩ ⁦+١١٥⁩") has no strong letter and a chat app would set it left to right.
RLM = "\u200f"


def lines_text(lines: Sequence[str]) -> str:
    """The lines as one text, each opened by a right-to-left mark in a right-to-left language."""
    if current_language() in RTL_LANGUAGES:
        return "\n".join(RLM + line for line in lines)
    return "\n".join(lines)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for *n*, its number in the device's digits."""
    return page_translations().ungettext(singular, plural, n) % {"num": num(n)}


def points(value: int) -> str:
    return f"{LRI}{num(signed(value))}{PDI}"


def game_text(
    names: Sequence[str], scored: GameScore, *, title: str | None, played_on: str | None
) -> str:
    """A finished (or unfinished) game's result: its title and date, each player by place with
    their total, and who won."""
    head = " · ".join(
        p
        for p in (
            gettext("Trex"),
            isolated(title) if title else "",
            night_label(played_on) if played_on else "",
        )
        if p
    )
    order = sorted(range(4), key=lambda s: (scored.places[s], s))
    lines = [head]
    lines += [
        gettext(
            "%(place)s. %(name)s %(points)s",
            place=num(scored.places[s]),
            name=isolated(names[s]),
            points=points(scored.totals[s]),
        )
        for s in order
    ]
    if scored.winners:
        who = gettext(" and ").join(isolated(names[s]) for s in scored.winners)
        lines.append(
            gettext("Winner: %(names)s", names=who)
            if len(scored.winners) == 1
            else gettext("Winners (tie): %(names)s", names=who)
        )
    return lines_text(lines)


def standing_lines(standings: Sequence[dict[str, Any]]) -> list[str]:
    """Each player's place, wins and points, best first."""
    lines = []
    for row in standings:
        wins = ngettext("%(num)s win", "%(num)s wins", row["wins"])
        lines.append(
            gettext(
                "%(place)s. %(name)s: %(wins)s, %(points)s",
                place=num(row["place"]),
                name=isolated(row["name"]),
                wins=wins,
                points=points(row["points"]),
            )
        )
    return lines


def night_text(
    night: str, standings: Sequence[dict[str, Any]], games: int, champion_rule: str
) -> str:
    """A night's totals, as the night's standings order them (``store.clubnights``): each
    player's wins and points over the night's games, and the night's champion."""
    lines = [
        " · ".join((gettext("Trex"), night_label(night))),
        ngettext("%(num)s game", "%(num)s games", games),
        *standing_lines(standings),
    ]
    if standings:
        lines.append(
            gettext("Champion of the night: %(name)s", name=isolated(standings[0]["name"]))
        )
        lines.append(gettext(champion_rule))
    return lines_text(lines)


def season_text(name: str, standings: Sequence[dict[str, Any]], champion_rule: str) -> str:
    """A season's standings (``store.seasons``) and its champion, with the rule."""
    lines = [" · ".join((gettext("Trex"), isolated(name))), *standing_lines(standings)]
    if standings:
        lines.append(
            gettext("Champion of the season: %(name)s", name=isolated(standings[0]["name"]))
        )
        lines.append(gettext(champion_rule))
    return lines_text(lines)
