"""Messages shown once on the next page (Flask's ``flash``), in the language of that page.

What the session keeps is the message's English text (its msgid) and its values; the page that
shows it translates it then. A phone that switches language between the two pages, or a message
flashed in one language and read in the other, still reads it in the language of the page.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, flash, get_flashed_messages
from markupsafe import Markup
from flask_babel import gettext

CATEGORY = "words"


def flash_words(message: Any) -> None:
    """Flash *message*, a ``lazy_gettext("...", name=value)``: kept untranslated, with its
    values, and translated by the page that shows it. A plain string is flashed as it is."""
    msgid = getattr(message, "_args", None)
    values = getattr(message, "_kwargs", None)
    if msgid and isinstance(msgid[0], str) and isinstance(values, dict):
        flash({"msgid": msgid[0], "values": values}, CATEGORY)
    else:
        flash(str(message))


def flashed() -> list[str | Markup]:
    """``flashed()`` in the templates: the messages for this page, in its language."""
    out = []
    for message in get_flashed_messages():
        msgid = message.get("msgid") if isinstance(message, dict) else None
        if isinstance(msgid, str):
            out.append(gettext(msgid, **(message.get("values") or {})))
        else:  # already words of the page's language; Markup (names in <bdi>) stays Markup
            out.append(message if isinstance(message, Markup) else str(message))
    return out


def init_app(app: Flask) -> None:
    app.add_template_global(flashed)
