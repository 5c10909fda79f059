"""Messages shown once on the next page (Flask's ``flash``), in the language of that page.

What the session keeps is the message's English text (its msgid, and its plural with the
count), its values and the player names it holds; the page that shows it translates it then,
writes its numbers in the phone's digits and isolates each name in ``<bdi>``. A phone that
switches language between the two pages, or a message flashed in one language and read in the
other, still reads it in the language of the page.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask, flash, get_flashed_messages, request
from markupsafe import Markup

from .i18n import page_translations
from .messages import said

CATEGORY = "words"


def flash_message(msgid: str, *, names: Mapping[str, str] | None = None, **values: Any) -> None:
    """Flash *msgid*, its *values* (``%(key)s`` placeholders) and *names*, player names put
    in isolated. (Extraction reads its first argument: ``-k flash_message``.)"""
    _flash(msgid, None, None, names, values)


def flash_refusal(exc: Any) -> None:
    """Flash a refusal of the store (``store.refused.Refused``) for the next page, said there in
    its language: the one way a page flashes one (``messages.refusal`` says one on this page)."""
    flash_message(exc.message, names=exc.names, **exc.values)


def flash_plural(
    singular: str, plural: str, count: int, *, names: Mapping[str, str] | None = None, **values: Any
) -> None:
    """Flash a message that counts, as ``ngettext`` takes it: *count* is its ``%(num)s``.
    A function of its own, so that extraction reads both forms (``-k flash_plural:1,2``)."""
    _flash(singular, plural, count, names, values)


def _flash(
    msgid: str,
    plural: str | None,
    count: int | None,
    names: Mapping[str, str] | None,
    values: Mapping[str, Any],
) -> None:
    flash(
        {
            "msgid": msgid,
            "plural": plural,
            "count": count,
            "names": dict(names or {}),
            "values": dict(values),
        },
        CATEGORY,
    )


def flash_words(message: Any) -> None:
    """Flash *message*, a ``lazy_gettext("...", name=value)``: kept untranslated, with its
    values, and translated by the page that shows it. A plain string is flashed as it is."""
    msgid = getattr(message, "_args", None)
    values = getattr(message, "_kwargs", None)
    if msgid and isinstance(msgid[0], str) and isinstance(values, dict):
        flash_message(msgid[0], **values)
    else:
        flash(str(message))


def _said(message: Mapping[str, Any]) -> Markup:
    translations = page_translations()
    msgid, plural = message["msgid"], message.get("plural")  # not literals to extract
    if plural:
        count = message.get("count") or 0
        text = translations.ungettext(msgid, plural, count)
        values: dict[str, Any] = {"num": count}
    else:
        text = translations.ugettext(msgid)
        values = {}
    values.update(message.get("values") or {})
    names = message.get("names") or {}
    try:
        return said(text, values, names)
    except (KeyError, ValueError, TypeError):
        return said(message["msgid"], values, names)


def flashed() -> list[str | Markup]:
    """``flashed()`` in the templates: the messages for this page, in its language."""
    out: list[str | Markup] = []
    if request.headers.get("Purpose") == "prefetch":  # a page kept ahead for offline use
        return out  # (static/sw.js): the messages are for the page the phone opens next
    for message in get_flashed_messages():
        if isinstance(message, dict) and isinstance(message.get("msgid"), str):
            out.append(_said(message))
        else:  # already words of the page's language; Markup (names in <bdi>) stays Markup
            out.append(message if isinstance(message, Markup) else str(message))
    return out


def init_app(app: Flask) -> None:
    app.add_template_global(flashed)
