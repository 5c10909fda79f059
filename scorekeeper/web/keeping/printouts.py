"""Printed answers, for every page that prints: a PDF as a download, a file name made of a
title, the language a printed page is asked for in, and a game's sheet as the PNG the Share
button sends. The digits a sheet is printed in are the phone's (``readysheets.sheet_digits``).

What is printed is laid out by the printing processes (``web/keeping/printer.py``); a game's sheet is
kept and made ready (``web/keeping/readysheets.py``). This module only answers with it.
"""

from __future__ import annotations

import io
import re
from typing import Callable

from flask import Response, abort, request, send_file
from flask_babel import gettext

from ...store.storage import StoredGame
from ..making.i18n import current_language
from .printer import database_path
from .readysheets import etag_of, sheet_png, shown_version, way_of_reading

#: The languages a printed page is asked for in (``?lang=``).
PRINTED_LANGUAGES = ("en", "ar")


def slug(text: str) -> str:
    """*text* as a file name's part: lower-case letters and digits between dashes, at most 40."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-")


def pdf_response(data: bytes, filename: str) -> Response:
    """*data* as a PDF to download as *filename*, kept by no cache."""
    response = send_file(
        io.BytesIO(data),
        mimetype="application/pdf",
        as_attachment=True,
        download_name=filename,
        max_age=0,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def print_language() -> str:
    """The language a club night's, a tournament's or a season's page is printed in: the one
    asked for (``?lang=``), else the page's; 404 for any other."""
    lang = request.args.get("lang") or current_language()
    if lang not in PRINTED_LANGUAGES:
        abort(404, gettext("These sheets are printed in English or Arabic."))
    return lang


def sheet_name(stored: StoredGame) -> str:
    """A game's sheet's file name, without its ending: the game's date and title."""
    name = "-".join(p for p in ("trex", stored.played_on or "", slug(stored.title)) if p)
    return name if name != "trex" else f"trex-game-{stored.id}"


def tagged(tag: str, make: Callable[[], Response]) -> Response:
    """The answer of a printed game's sheet, validated by *tag*: 304 to a phone that has it,
    else what *make* answers; a cache keeps it for this phone only, and asks again."""
    response = Response(status=304) if request.if_none_match.contains(tag) else make()
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def sheet_png_response(stored: StoredGame) -> Response:
    """The game's scoresheet as the PDF shows it (the kept one, in this phone's way), as a PNG
    image: what the Share button sends with the result."""
    way = way_of_reading("a4")
    slot = (database_path(), stored.id, way)
    shows = shown_version(stored)
    return tagged(
        "png-" + etag_of(shows, way),
        lambda: send_file(
            io.BytesIO(sheet_png(stored, slot, shows)),
            mimetype="image/png",
            download_name=f"{sheet_name(stored)}.png",
            max_age=0,
        ),
    )
