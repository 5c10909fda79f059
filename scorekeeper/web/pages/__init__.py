"""The pages: one blueprint per feature. Each reads and writes through the store, and says
things through the web wing's presentation modules. A page imports another page's module only
for what :data:`SHARED` names (``tests/project/test_architecture_map.py`` holds the imports to it):
``games``, the game every page of a game starts from (``deals``, ``live``, ``sheets``,
``history``, ``charts``, ``advise``, ``rules``, ``result``, ``confirm``). What pages have in
common besides lives in modules named for what it is: printed answers and their language
(``web/keeping/printouts.py``), a QR code (``web/making/qrcodes.py``), the entrants' name check
(``web/making/entrants.py``), the charts' drawing, sizes and keys (``web/keeping/svgcharts.py``), and what
the club night's and the tournament's pages and walls share (``web/making/boards.py``). Outside the
pages, only the app factory (:data:`BLUEPRINTS`) and
``web/groupsite.py`` (``front``'s blueprint, ``result.shared_result_opens``,
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
