"""Share the night: a game's or a night's result as a short text, with the scoresheet as a PNG
(the same sheet as the PDF, web/keeping/readysheets.py). With the Web Share API the Share button sends
both (static/share.js); without it, or without JavaScript, its link opens a page with the text
to copy and the image to download.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from flask import (
    Blueprint,
    abort,
    current_app,
    render_template,
    url_for,
)
from flask_babel import format_date, gettext

from ...store import clubnights, stats
from ..access import groupspace
from ..access.database import get_db
from ..making.i18n import current_language
from ..keeping.printer import printed_png
from ..keeping.printouts import sheet_png_response
from ..keeping.readysheets import sheet_digits
from ..making.sharing import game_text, night_text
from .games import fetch_game

bp = Blueprint("result", __name__)


def shared_key(what: str) -> str:
    """The secret of one result's own link, where reading is private: a hash of the app's
    secret key, the group and the result (a game's id, a night's date). It opens that result's
    text and image, and nothing else."""
    message = f"{groupspace.current() or ''}/{what}".encode()
    return hmac.new(str(current_app.secret_key).encode(), message, hashlib.sha256).hexdigest()[:32]


def shared_result_opens(values: dict) -> bool:
    """Does the address's key open the result it names?"""
    what = f"game {values['game_id']}" if "game_id" in values else f"night {values.get('night')}"
    return hmac.compare_digest(str(values.get("key", "")), shared_key(what))


def game_share(stored, scored) -> dict[str, str]:
    """What the Share button of a game sends: its text, and where its image and page are (where
    reading is private, at the result's own secret link, which a member may pass on)."""
    text = game_text(stored.game.players, scored, title=stored.title, played_on=stored.played_on)
    if groupspace.private():
        key = shared_key(f"game {stored.id}")
        return {
            "text": text,
            "image": url_for("result.shared_game_png", game_id=stored.id, key=key),
            "page": url_for("result.shared_game", game_id=stored.id, key=key),
        }
    return {
        "text": text,
        "image": url_for("sheets.game_sheet_png", game_id=stored.id),
        "page": url_for("result.game", game_id=stored.id),
    }


def night_share(night: str) -> dict[str, str] | None:
    """What the Share button of a night sends: the night's totals by its standings."""
    db = get_db()
    count = clubnights.night_game_count(db, night)
    if not count:
        return None
    text = night_text(
        night, clubnights.night_standings(db, night=night), count, clubnights.CHAMPION_RULE
    )
    if groupspace.private():
        key = shared_key(f"night {night}")
        return {
            "text": text,
            "image": url_for("result.shared_night_png", night=night, key=key),
            "page": url_for("result.shared_night", night=night, key=key),
        }
    return {
        "text": text,
        "image": url_for("result.night_png", night=night),
        "page": url_for("result.night", night=night),
    }


@bp.get("/r/games/<int:game_id>/<key>")
def shared_game(game_id: int, key: str):
    """A game's result at its own secret link (the guard in ``groups`` checked the key)."""
    stored = fetch_game(game_id)
    return render_template(
        "result.html", share=game_share(stored, stored.game.score()), stored=stored, back=None
    )


@bp.get("/r/games/<int:game_id>/<key>/sheet.png")
def shared_game_png(game_id: int, key: str):
    """The game's sheet as a PNG at the result's own secret link."""
    return sheet_png_response(fetch_game(game_id))


@bp.get("/r/nights/<night>/<key>")
def shared_night(night: str, key: str):
    share = night_share(_night(night))
    if share is None:
        abort(404, gettext("There is no such night."))
    return render_template("result.html", share=share, stored=None, back=None)


@bp.get("/r/nights/<night>/<key>/standings.png")
def shared_night_png(night: str, key: str):
    return night_png(night)


@bp.get("/games/<int:game_id>/result")
def game(game_id: int):
    stored = fetch_game(game_id)
    share = game_share(stored, stored.game.score())
    return render_template(
        "result.html", share=share, stored=stored, back=url_for("games.show", game_id=game_id)
    )


def _night(night: str) -> str:
    """The night named in an address, or 404."""
    try:
        return stats.parse_date(night)
    except ValueError:
        abort(404, gettext("There is no such night."))


@bp.get("/history/nights/<night>/standings.png")
def night_png(night: str):
    """The night's standings printed on one page (the club night's standings sheet, for a
    night of ordinary games), as the PNG the Share button sends with the night's text."""
    day = _night(night)
    db = get_db()
    if not clubnights.night_game_count(db, day):
        abort(404, gettext("There is no such night."))
    params = {
        "title": format_date(dt.date.fromisoformat(day), "full"),
        "night": day,
        "rows": clubnights.night_standings(db, night=day),
        "rule": clubnights.CHAMPION_RULE,
        "rounds_played": 0,
        "rounds": 0,
        "over": True,
        "lang": current_language(),
        "digits": sheet_digits(),
    }
    return printed_png("night", "standings_pdf", f"night-{day}.png", **params)


@bp.get("/history/nights/<night>/result")
def night(night: str):
    day = _night(night)
    share = night_share(day)
    if share is None:
        abort(404, gettext("There is no such night."))
    return render_template(
        "result.html", share=share, stored=None, back=url_for("history.night", night=day)
    )


bp.add_app_template_global(game_share)
bp.add_app_template_global(night_share)
