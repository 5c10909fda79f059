"""A long list of players shown a page at a time (``?page=N`` and the like): which page a
query asks for, and what the pager under the list shows (``players_pager`` in
``templates/_macros.html``). The roster, the leaderboard, a season's standings and a player's
head-to-head and partners are paged so."""

from __future__ import annotations

from typing import Any, Callable

from flask import abort, request
from flask_babel import gettext


def page_asked(arg: str, count: int, per_page: int) -> tuple[int, int]:
    """The page of a list of *count* players that ``?arg=N`` asks for (the first without it)
    and how many pages the list has; 404 for a page that is not one of them."""
    page = request.args.get(arg, "1")
    pages = max(1, -(-count // per_page))
    if not page.isascii() or not page.isdigit() or not 0 < int(page) <= pages:
        abort(404, gettext("There is no such page of players."))
    return int(page), pages


def pager_of(page: int, pages: int, link: Callable[[int], str]) -> dict[str, Any]:
    """What a pager of a list shows (``players_pager``): the page, how many, and the links
    (*link* of a page's number) to the pages before and after, None at either end."""
    return {
        "page": page,
        "pages": pages,
        "previous": link(page - 1) if page > 1 else None,
        "next": link(page + 1) if page < pages else None,
    }
