"""The pages: one blueprint per feature. Each reads and writes through the store, and says
things through the web wing's presentation modules. A page imports another page's module only
for what several share: ``games`` (``fetch_game``, ``game_context``, ``seat_arg``: the game
every page of a game starts from), ``sheets`` (a printed sheet's answer, its digits and its
file name, and the sheets made ahead after a save), ``live`` (the QR code's SVG and a game's
version) and ``clubs`` (for ``tournaments``: the one check of the names entered, the polling
interval and the printed sheet's language)."""

from __future__ import annotations

from . import (
    access,
    advise,
    charts,
    clubs,
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
    settings,
    sheets,
    tournaments,
    transfer,
)

#: Registered in this order by ``create_app``.
BLUEPRINTS = tuple(
    page.bp
    for page in (
        home,
        settings,
        access,
        games,
        deals,
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
        rules,
        result,
        offline,
        group,
    )
)
BLUEPRINTS += (settings.switches,)
