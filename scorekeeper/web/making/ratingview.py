"""The ratings on the pages: whether the group keeps them, each player's chance of winning, and
how a rating, its change and a chance are printed.

The ratings themselves are the store's (``store.ratings``: openskill's Plackett-Luce, derived from
the stored games). A group that turns them off in Settings sees them nowhere: every page asks
:func:`on` first. A game page that shows them depends on other games than its own: a page that reads
their tables is kept only under a key that holds the ratings' version
(``store.ratings.VERSION``), which every change of the ratings draws again
(``validators.whole_page_cached``).
"""

from __future__ import annotations

from typing import Sequence

from flask import Blueprint, g
from markupsafe import Markup

from ...store import ratings, storage
from ..access.database import get_db
from .i18n import num

MINUS = "\u2212"


def on() -> bool:
    """Whether the group keeps ratings (read once per request)."""
    if "ratings_on" not in g:
        g.ratings_on = ratings.enabled(get_db())
    return bool(g.ratings_on)


def known_ids(names: Sequence[str]) -> list[int] | None:
    """The players' ids when *names* are four different players the group knows, else None."""
    cleaned = [(name or "").strip() for name in names]
    if len(cleaned) != 4 or not all(cleaned):
        return None
    keys = [storage.name_key(name) for name in cleaned]
    if len(set(keys)) != 4:
        return None
    db = get_db()
    found = {
        r["name_key"]: r["id"]
        for r in db.query("select id, name_key from players where name_key in (?, ?, ?, ?)", keys)
    }
    if len(found) != 4:
        return None
    return [found[key] for key in keys]


def chances_of(names: Sequence[str], partnership: bool) -> list[float] | None:
    """Each seat's chance of winning by the ratings, for four known players (None otherwise,
    or when the group keeps no ratings)."""
    if not on():
        return None
    ids = known_ids(names)
    if ids is None:
        return None
    return ratings.chances(get_db(), ids, partnership)


def change(value: int | None) -> Markup:
    """A change of rating with its sign: +12, −8, 0, kept left to right in an Arabic line by
    the markup itself (``dir``, which isolates it), not only by the stylesheet."""
    if value is None:
        return Markup("–")
    text = f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"
    return Markup('<span class="ltr" dir="ltr">%s</span>') % num(text)


def chance(value: float) -> str:
    """A chance as a whole percentage; under 1% as "<1%"."""
    percent = round(100 * value)
    return num(f"{percent}%") if percent >= 1 else num("<1%")


def install(bp: Blueprint) -> None:
    bp.add_app_template_filter(change, "rating_change")
    bp.add_app_template_filter(chance)
    bp.add_app_template_global(on, "ratings_on")
