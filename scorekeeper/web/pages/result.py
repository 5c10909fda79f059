"""Share the night: a game's or a night's result as a short text, with the scoresheet as a PNG
(the same sheet as the PDF, pages/sheets.py). With the Web Share API the Share button sends
both (static/share.js); without it, or without JavaScript, its link opens a page with the text
to copy and the image to download.
"""
from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for
from flask_babel import gettext

from ...store import clubnights, stats
from ..database import get_db
from ..sharing import game_text, night_text
from .games import fetch_game

bp = Blueprint("result", __name__)


def game_share(stored, scored) -> dict[str, str]:
    """What the Share button of a game sends: its text, and where its image and page are."""
    return {"text": game_text(stored.game.players, scored, title=stored.title,
                              played_on=stored.played_on),
            "image": url_for("sheets.game_sheet_png", game_id=stored.id),
            "page": url_for("result.game", game_id=stored.id)}


def night_share(night: str) -> dict[str, str] | None:
    """What the Share button of a night sends: the night's totals by its standings."""
    db = get_db()
    ids = clubnights.night_game_ids(db, night)
    if not ids:
        return None
    text = night_text(night, clubnights.night_standings(db, ids), len(ids),
                      clubnights.CHAMPION_RULE)
    return {"text": text, "image": "", "page": url_for("result.night", night=night)}


@bp.get("/games/<int:game_id>/result")
def game(game_id: int):
    stored = fetch_game(game_id)
    share = game_share(stored, stored.game.score())
    return render_template("result.html", share=share, stored=stored,
                           back=url_for("games.show", game_id=game_id))


@bp.get("/history/nights/<night>/result")
def night(night: str):
    try:
        day = stats.parse_date(night)
    except ValueError:
        abort(404, gettext("There is no such night."))
    share = night_share(day)
    if share is None:
        abort(404, gettext("There is no such night."))
    return render_template("result.html", share=share, stored=None,
                           back=url_for("history.night", night=day))


bp.add_app_template_global(game_share)
bp.add_app_template_global(night_share)
