"""Charts as images: each is a separate ``image/svg+xml`` response, drawn on the server without
any script (``web/keeping/svgcharts.py``); pygal puts its styles in a ``<style>`` element, which the
pages' Content-Security-Policy would refuse inline. Every page that shows one also shows its
figures as a table, for screen readers and for print.

At most :data:`inflight.CHARTS_AT_ONCE` are drawn at once (503 with ``Retry-After`` past it),
and a game's running totals, which depend only on the game's version and how the phone reads,
are kept by them.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, request
from flask_babel import gettext

from ...store import ratings, stats
from ...store.kept import Kept
from ..access.database import get_db
from ..keeping import validators
from ..access.groupspace import database_path
from ..making.i18n import current_language, num
from ..keeping.svgcharts import contract_averages_svg, rating_svg, running_totals_svg
from .games import fetch_game

bp = Blueprint("charts", __name__, url_prefix="/charts")

SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'"


def svg_response(svg: str) -> Response:
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Content-Security-Policy"] = SVG_POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


#: Games' running totals, by database, game version and how the phone reads.
RUNNING: Kept[str] = Kept(64)


@bp.get("/games/<int:game_id>/running.svg")
@validators.whole_page_cached("running chart")
def running(game_id: int):
    stored = fetch_game(game_id)
    key = (
        database_path(),
        game_id,
        stored.row["version_tag"],
        current_language(),
        num("0123456789"),
    )
    return svg_response(
        RUNNING.get_or_make(
            key, lambda: running_totals_svg(stored.game.players, stored.game.score().running)
        )
    )


@bp.get("/players/<int:player_id>/contracts.svg")
@validators.group_page_cached("contracts chart")
def contracts(player_id: int):
    db = get_db()
    if stats.player(db, player_id) is None:
        abort(404, gettext("There is no such player."))
    try:
        filters = stats.Filters(
            stats.parse_date(request.args.get("from")), stats.parse_date(request.args.get("to"))
        )
    except ValueError:
        abort(404, gettext("There is no such date."))
    lines = stats.play_stats(db, player_id, filters).contracts
    return svg_response(contract_averages_svg(lines))


@bp.get("/players/<int:player_id>/rating.svg")
@validators.group_page_cached("rating chart")
def rating(player_id: int):
    db = get_db()
    if stats.player(db, player_id) is None:
        abort(404, gettext("There is no such player."))
    if not ratings.enabled(db):
        abort(404, gettext("This group keeps no ratings: they are turned off in Settings."))
    return svg_response(rating_svg(ratings.history(db, player_id)))
