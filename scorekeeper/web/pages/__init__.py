"""The pages: one blueprint per feature. Each reads and writes through the store, and says
things through the web wing's presentation modules. A page imports another page's module only
for what several share: ``games`` (``fetch_game``, ``game_context``, ``seat_arg``: the game
every page of a game starts from), ``sheets`` (a printed sheet's answer, its digits and its
file name, and the sheets made ahead after a save) and ``live`` (the QR code's SVG and a game's
version)."""

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
    seasons,
    settings,
    sheets,
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
        rules,
        result,
        seasons,
        offline,
        group,
    )
)
BLUEPRINTS += (settings.switches,)
