"""The pages: one blueprint per feature. Each reads and writes through the store, and says
things through the web wing's presentation modules; none imports another page's module except
for ``games.fetch_game`` and ``games.game_context``, the game every page of a game starts from."""
from __future__ import annotations

from . import (access, advise, charts, clubs, deals, games, group, health, history, home, live,
               offline, players, result, rules, settings, sheets, transfer)

#: Registered in this order by ``create_app``.
BLUEPRINTS = tuple(page.bp for page in (home, settings, access, games, deals, live, sheets,
                                         history, players, charts, transfer, health, advise,
                                         clubs, rules, result, offline, group))
BLUEPRINTS += (settings.switches,)
