"""Printed scoresheets: a game's sheet as a PDF and as a PNG, and a blank one to fill in by hand.

A game's sheet is kept and made ready before it is asked for (``web/keeping/readysheets.py``); every
sheet that is not kept is laid out by the printing processes, through the one bounded queue in
front of them (``web/keeping/printer.py``): past it, 503 with ``Retry-After``. The blank sheet depends
only on its parameters, and is kept by them.
"""

from __future__ import annotations

from flask import Blueprint, abort, request
from flask_babel import gettext

from ...engine.gamefile import NAME_LIMIT, check_players
from ...store.storage import clean_name
from ..making.messages import problem_text
from ..keeping.printer import database_path, printed
from ..keeping.printouts import pdf_response, sheet_name, sheet_png_response, tagged
from ..keeping.readysheets import (
    etag_of,
    remember_printed,
    sheet_digits,
    sheet_language,
    sheet_pdf,
    shown_version,
    way_of_reading,
)
from .games import fetch_game

bp = Blueprint("sheets", __name__)
PAPERS = ("A4", "letter")


def paper_arg() -> str:
    paper = request.args.get("paper", "A4")
    if paper.lower() not in {p.lower() for p in PAPERS}:
        abort(404, gettext("Scoresheets come in A4 or letter."))
    return paper


@bp.get("/games/<int:game_id>/sheet.pdf")
def game_sheet(game_id: int):
    """The game's scoresheet as it stands, on one page: kept if ready, else made now."""
    stored = fetch_game(game_id)
    way = way_of_reading(paper_arg())
    slot = (database_path(), game_id, way)
    shows = shown_version(stored)
    remember_printed(slot)
    return tagged(
        etag_of(shows, way),
        lambda: pdf_response(sheet_pdf(stored, slot, shows), f"{sheet_name(stored)}.pdf"),
    )


@bp.get("/games/<int:game_id>/sheet.png")
def game_sheet_png(game_id: int):
    """The same scoresheet as the PDF, as a PNG image: what the Share button sends."""
    return sheet_png_response(fetch_game(game_id))


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
