"""Printed scoresheets as PDF downloads: a game's sheet, and a blank one to fill in by hand."""
from __future__ import annotations

import io
import re

from flask import Blueprint, abort, request, send_file
from flask_babel import gettext

from ...engine.gamefile import NAME_LIMIT, check_players
from .games import fetch_game
from ..i18n import DIGITS_COOKIE, current_language
from ..messages import problem_text
from ...store.storage import clean_name
from ..words import table_words

bp = Blueprint("sheets", __name__)
PAPERS = ("A4", "letter")


def paper_arg() -> str:
    paper = request.args.get("paper", "A4")
    if paper.lower() not in {p.lower() for p in PAPERS}:
        abort(404, gettext("Scoresheets come in A4 or letter."))
    return paper


def sheet_language() -> str:
    """The page's language, which the sheet is printed in (right to left in Arabic)."""
    return current_language()


def sheet_digits() -> str:
    """The digits this phone reads numbers in (a setting), which the sheet is printed in."""
    return "arabic" if request.cookies.get(DIGITS_COOKIE) == "arabic" else "western"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-")


def pdf_response(data: bytes, filename: str):
    response = send_file(io.BytesIO(data), mimetype="application/pdf", as_attachment=True,
                         download_name=filename, max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<int:game_id>/sheet.pdf")
def game_sheet(game_id: int):
    """The game's scoresheet as it stands, on one page."""
    from ...printing import render_game_pdf  # WeasyPrint loads on first use, not at start-up

    stored = fetch_game(game_id)
    name = "-".join(p for p in ("trex", stored.played_on or "", slug(stored.title)) if p)
    return pdf_response(render_game_pdf(stored.game, paper=paper_arg(), lang=sheet_language(),
                                        contract_words=table_words(), digits=sheet_digits()),
                        f"{name if name != 'trex' else f'trex-game-{game_id}'}.pdf")


@bp.get("/sheet/blank.pdf")
def blank_sheet():
    """An empty scoresheet; ``?names=`` four times writes the players' names in."""
    from ...printing import render_blank_pdf

    names = [clean_name(n) for n in request.args.getlist("names")]
    if not any(names):
        names = []
    if names and len(names) != 4:
        abort(400, gettext("A blank sheet takes four names of at most %(limit)s characters, or "
                           "none.", limit=NAME_LIMIT))
    problems = check_players(names) if names else []  # the one check of a name
    if problems:
        abort(400, " ".join(problem_text(p) for p in problems))
    return pdf_response(render_blank_pdf(names or None, paper=paper_arg(),
                                         lang=sheet_language(), contract_words=table_words(),
                                         digits=sheet_digits()),
                        "trex-blank-scoresheet.pdf")
