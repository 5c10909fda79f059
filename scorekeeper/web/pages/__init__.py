"""The pages: one blueprint per feature. Each reads and writes through the store, and says
things through the web wing's presentation modules. A page imports another page's module only
for what :data:`SHARED` names (``tests/project/test_architecture_map.py`` holds the imports to it):
``games``, the game every page of a game starts from (``deals``, ``live``, ``sheets``,
``history``, ``charts``, ``advise``, ``rules``, ``result``); ``sheets``, a printed sheet's
answer, digits, file name and image (``clubs``, ``result``, ``tournaments``); ``live``, a QR
code's SVG (``group``, ``walls``); and ``clubs``, for ``tournaments``: the one check of the
names entered and the printed sheet's language; and ``charts``, for ``history``: the
running-totals chart's height and its legend's keys, drawn by the page. What the club night's
and the tournament's pages and walls share is ``web/boards.py``, no page. Outside the pages, only the app factory (:data:`BLUEPRINTS`) and
``web/groups.py`` (``front``'s blueprint, ``result.shared_result_opens``,
``walls.wall_opens``) import them."""

from __future__ import annotations

from . import (
    access,
    advise,
    charts,
    clubs,
    confirm,
    deals,
    games,
    group,
    health,
    history,
    home,
    live,
    offline,
    players,
    result,
    rules,
    seasons,
    settings,
    sheets,
    tournaments,
    transfer,
    walls,
)

#: What a page may import of another page: that page, and the names it shares.
SHARED = {
    "games": ("fetch_game", "game_context", "seat_arg"),
    "sheets": ("pdf_response", "sheet_digits", "slug", "game_sheet_png"),
    "live": ("qr_svg",),
    "clubs": ("name_refusal", "print_language"),
    "charts": ("RUNNING_HEIGHT", "keys"),
}

#: Registered in this order by ``create_app``.
BLUEPRINTS = tuple(
    page.bp
    for page in (
        home,
        settings,
        access,
        games,
        deals,
        confirm,
        live,
        sheets,
        history,
        players,
        charts,
        transfer,
        health,
        advise,
        clubs,
        tournaments,
        walls,
        rules,
        result,
        seasons,
        offline,
        group,
    )
)
BLUEPRINTS += (settings.switches,)
