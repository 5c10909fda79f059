"""The one check of the names entered for a club night or a tournament, said in words."""

from __future__ import annotations

from flask_babel import gettext
from markupsafe import Markup, escape

from ...engine.gamefile import NAME_LIMIT, name_problem
from ...store.players import NAME_REFUSALS
from .i18n import isolated, num


def name_refusal(names: list[str]) -> Markup | None:
    """The first name that fails the one check of every name (the engine's ``name_problem``),
    said in words; None when every name passes (New club night, New tournament)."""
    for name in names:
        problem = name_problem(name)
        if problem is None:
            continue
        if problem == "player_name_too_long":
            text = Markup(escape(gettext("%(name)s: a name has at most %(most)s characters.")))
            values = {"name": isolated(name), "most": num(NAME_LIMIT)}
        else:
            text = Markup(escape(gettext("%(name)s: %(problem)s")))
            values = {"name": isolated(name), "problem": gettext(NAME_REFUSALS[problem])}
        return text % values
    return None
