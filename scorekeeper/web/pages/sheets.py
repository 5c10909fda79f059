"""Printed scoresheets as PDF downloads: a game's sheet, and a blank one to fill in by hand.

A game's sheet is kept and made ready before it is asked for (``web/readysheets.py``); every
sheet that is not kept is laid out by the printing processes, through the one bounded queue in
front of them (``web/printer.py``): past it, 503 with ``Retry-After``. The blank sheet depends
only on its parameters, and is kept by them.
"""

from __future__ import annotations

import io
import re

from flask import Blueprint, Response, abort, request, send_file
from flask_babel import gettext

from ...engine.gamefile import NAME_LIMIT, check_players
from ...store.storage import StoredGame, clean_name
from ..messages import problem_text
from ..printer import database_path, printed
from ..readysheets import (
    etag_of,
    remember_printed,
    sheet_digits,
    sheet_language,
    sheet_pdf,
    sheet_png,
    shown_version,
    way_of_reading,
)
from .games import fetch_game

bp = Blueprint("sheets", __name__)
PAPERS = ("A4", "letter")
__all__ = ["bp", "pdf_response", "sheet_digits", "slug"]


def paper_arg() -> str:
    paper = request.args.get("paper", "A4")
    if paper.lower() not in {p.lower() for p in PAPERS}:
        abort(404, gettext("Scoresheets come in A4 or letter."))
    return paper


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-")


def pdf_response(data: bytes, filename: str):
    response = send_file(
        io.BytesIO(data),
        mimetype="application/pdf",
        as_attachment=True,
        download_name=filename,
        max_age=0,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<int:game_id>/sheet.pdf")
def game_sheet(game_id: int):
    """The game's scoresheet as it stands, on one page: kept if ready, else made now."""
    stored = fetch_game(game_id)
    way = way_of_reading(paper_arg())
    slot = (database_path(), game_id, way)
    shows = shown_version(stored)
    remember_printed(slot)
    tag = etag_of(shows, way)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        response = pdf_response(sheet_pdf(stored, slot, shows), f"{sheet_name(stored)}.pdf")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def sheet_name(stored: StoredGame) -> str:
    name = "-".join(p for p in ("trex", stored.played_on or "", slug(stored.title)) if p)
    return name if name != "trex" else f"trex-game-{stored.id}"


@bp.get("/games/<int:game_id>/sheet.png")
def game_sheet_png(game_id: int):
    """The same scoresheet as the PDF (the kept one, in this phone's way), as a PNG image: what
    the Share button sends with the result."""
    stored = fetch_game(game_id)
    way = way_of_reading("a4")
    slot = (database_path(), game_id, way)
    shows = shown_version(stored)
    tag = "png-" + etag_of(shows, way)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        response = send_file(
            io.BytesIO(sheet_png(stored, slot, shows)),
            mimetype="image/png",
            download_name=f"{sheet_name(stored)}.png",
            max_age=0,
        )
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/sheet/blank.pdf")
def blank_sheet():
    """An empty scoresheet; ``?names=`` four times writes the players' names in."""
    names = [clean_name(n) for n in request.args.getlist("names")]
    if not any(names):
        names = []
    if names and len(names) != 4:
        abort(
            400,
            gettext(
                "A blank sheet takes four names of at most %(limit)s characters, or none.",
                limit=NAME_LIMIT,
            ),
        )
    problems = check_players(names) if names else []  # the one check of a name
    if problems:
        abort(400, " ".join(problem_text(p) for p in problems))
    data = printed(
        "blank",
        "blank_pdf",
        names=tuple(names),
        paper=paper_arg().lower(),
        lang=sheet_language(),
        digits=sheet_digits(),
        words=(),  # the language's usual words: a cookie's never make a new render
    )
    return pdf_response(data, "trex-blank-scoresheet.pdf")
