"""House rules in words, in the page's language.

The engine describes a game's rules as (code, params) parts (``HouseRules.summary_parts``) with
English templates in ``engine.messages.RULES_TEXT``; the template is the msgid looked up here.
Templates call ``rules_text(game.rules)``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from flask import Flask
from flask_babel import gettext

from ...engine.rules import RULES, HouseRules
from ...languages import rules_line
from .i18n import current_language
from .messages import contract_label
from .words import words_key


def rules_text(rules: HouseRules | str | dict[str, Any]) -> str:
    """One line describing *rules* (the settings object, or its file-format dict or JSON)."""
    if isinstance(rules, str):  # a stored game's rules: lists show many, with few distinct
        return _stored(rules, current_language(), words_key())
    if not isinstance(rules, HouseRules):
        rules = HouseRules.from_dict(rules)
    return rules_line(rules, current_language(), gettext, contract_label)


@lru_cache(maxsize=256)
def _stored(rules_json: str, language: str, words: tuple[tuple[str, str], ...]) -> str:
    """The line for stored rules in *language* with the table's *words* (the cache's key)."""
    return rules_text(HouseRules.from_dict(json.loads(rules_json)))


def init_app(app: Flask) -> None:
    app.add_template_global(rules_text)
    app.add_template_global(RULES, "house_rules")


__all__ = ["init_app", "rules_text"]
