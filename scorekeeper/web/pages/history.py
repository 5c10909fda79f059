"""Past nights: games grouped by date, a search by player, and each game's record, read-only.

The lists read the per-game summary that storage keeps (totals, winners, finished) and page by
nights and by games: a page holds at most :data:`NIGHTS_PER_PAGE` nights and
:data:`GAMES_PER_PAGE` games (a night of more games goes on over the next pages), found by a
cursor in the address (the night and game a page starts after, or before), so that a page
costs the same, in time and in memory, at ten games or a hundred thousand. A night's page
lists its games a page at a time in the same way.
"""

from __future__ import annotations

import json
from itertools import groupby
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext

from ...store import clubnights, stats, storage
from ...store.storage import StoredGame
from ..making import figures, present
from ..access.database import get_db
from ..keeping import validators
from ..making.rulestext import rules_text
from ..keeping.svgcharts import RUNNING_HEIGHT, keys
from .games import fetch_game, game_context

bp = Blueprint("history", __name__, url_prefix="/history")
figures.install(bp)
NIGHTS_PER_PAGE = 10
GAMES_PER_PAGE = 50
#: A night's standings list at most this many players (a club night has up to 32).
STANDINGS_SHOWN = 40


def rules_line(rules_json: str) -> str:
    """The one-line summary of a stored game's house rules, in the page's language."""
    text = rules_text(rules_json)
    return text[:1].upper() + text[1:]


def matching_players(db, text: str) -> list[dict[str, Any]]:
    """Players whose name contains *text*, ignoring case and extra spaces."""
    key = storage.name_key(text)
    if not key:
        return []
    return list(
        db.query(
            "select id, name from players where instr(name_key, ?) > 0 order by name_key", [key]
        )
    )


def _game_rows(db, where: str, params: list[Any]) -> list[dict[str, Any]]:
    sql = f"""select g.id, g.title, g.night, g.played_on, g.finished, g.deal_count, g.rules_json,
                 g.winners_json, g.team_result, (select json_group_array(name) from (
                     select p.name from game_players gp join players p on p.id = gp.player_id
                     where gp.game_id = g.id order by gp.seat)) as names_json
              from games g where {where} order by g.night desc, g.id desc"""
    rows = []
    for row in db.query(sql, params):
        row["names"] = json.loads(row.pop("names_json"))
        row["winners"] = [row["names"][s] for s in json.loads(row["winners_json"] or "[]")]
        row["rules"] = rules_line(row["rules_json"])
        rows.append(row)
    return present.tell_apart(rows)


Cursor = tuple[str, int]  # (night, game id): a page starts after it, newest first


def _filters(player_ids: list[int] | None) -> tuple[list[str], list[Any]]:
    if player_ids is None:
        return ["1 = 1"], []
    marks = ", ".join("?" * len(player_ids)) or "null"
    return (
        [f"g.id in (select game_id from game_players where player_id in ({marks}))"],
        list(player_ids),
    )


# Row values, which SQLite reads as one range of the nights' index: the same condition written
# with ``or``, its parameters bound, made it read the index from its far end (5 ms at 100,000
# games for the first page's "newer" check).
def _older_than(cursor: Cursor) -> tuple[str, list[Any]]:
    return "(g.night, g.id) < (?, ?)", [cursor[0], cursor[1]]


def _newer_than(cursor: Cursor) -> tuple[str, list[Any]]:
    return "(g.night, g.id) > (?, ?)", [cursor[0], cursor[1]]


def _page_ids(
    db,
    where: list[str],
    params: list[Any],
    *,
    newer: bool,
    limit: int,
) -> list[tuple[str, int]]:
    order = "asc" if newer else "desc"
    rows = db.query(
        f"select g.night, g.id from games g where {' and '.join(where)} "
        f"order by g.night {order}, g.id {order} limit ?",
        [*params, limit],
    )
    found = [(r["night"], r["id"]) for r in rows]
    return found[::-1] if newer else found


def nights_page(
    db,
    *,
    after: Cursor | None = None,
    before: Cursor | None = None,
    player_ids: list[int] | None = None,
) -> tuple[list[tuple[str, list[dict[str, Any]]]], Cursor | None, Cursor | None]:
    """A page of games, newest first, grouped by night: those older than *after* (or newer
    than *before*), at most GAMES_PER_PAGE of at most NIGHTS_PER_PAGE nights; and the cursors
    of the next (older) and the previous (newer) pages, None where there is none."""
    where, params = _filters(player_ids)
    if before is not None:
        clause, more = _newer_than(before)
    elif after is not None:
        clause, more = _older_than(after)
    else:
        clause, more = "1 = 1", []
    keys = _page_ids(
        db, [*where, clause], [*params, *more], newer=before is not None, limit=GAMES_PER_PAGE + 1
    )
    if before is not None:  # read backwards: the page is the newest-but-one's last games
        keys = keys[-GAMES_PER_PAGE:]
    else:
        keys = keys[: GAMES_PER_PAGE + 1]
    nights = list(dict.fromkeys(night for night, _ in keys))[:NIGHTS_PER_PAGE]
    page = [key for key in keys if key[0] in nights][:GAMES_PER_PAGE]
    if not page:
        return [], None, None
    older_clause, older_params = _older_than(page[-1])
    newer_clause, newer_params = _newer_than(page[0])
    older = (
        page[-1]
        if _page_ids(db, [*where, older_clause], [*params, *older_params], newer=False, limit=1)
        else None
    )
    newer = (
        page[0]
        if _page_ids(db, [*where, newer_clause], [*params, *newer_params], newer=True, limit=1)
        else None
    )
    rows = {
        r["id"]: r
        for r in _game_rows(
            db, f"g.id in ({', '.join('?' * len(page))})", [game_id for _, game_id in page]
        )
    }
    ordered = [rows[game_id] for _, game_id in page if game_id in rows]
    grouped = [(night, list(games)) for night, games in groupby(ordered, key=lambda r: r["night"])]
    return grouped, older, newer


def read_cursor(name: str) -> Cursor | None:
    """The cursor ``?NAME=YYYY-MM-DD`` (with ``&game=ID``: that game of the night), or None;
    404 for one that cannot be."""
    value = request.args.get(name)
    if value is None:
        return None
    try:
        night = stats.parse_date(value)
        game = request.args.get("game")
        game_id = int(game) if game is not None else None
    except ValueError:
        abort(404, gettext("There is no such page of past nights."))
    if night is None or (game_id is not None and not 0 < game_id < 2**63):
        abort(404, gettext("There is no such page of past nights."))
    if game_id is None:  # a night alone: every game of it is on the other side
        return (night, 0) if name == "after" else (night, 2**63 - 1)
    return night, game_id


@bp.get("/")
@validators.group_page_cached("history")
def index():
    """Past nights, newest first; ``?player=`` searches by name, ``?after=`` (older) and
    ``?before=`` (newer), with ``&game=``, page through them."""
    db = get_db()
    text = request.args.get("player", "").strip()[:80]
    after, before = read_cursor("after"), read_cursor("before")
    found = matching_players(db, text) if text else None
    nights, older_key, newer_key = nights_page(
        db,
        after=after,
        before=before,
        player_ids=[p["id"] for p in found] if found is not None else None,
    )
    search = {"player": text} if text else {}
    older = (
        url_for("history.index", after=older_key[0], game=older_key[1], **search)
        if older_key
        else None
    )
    newer = (
        url_for("history.index", before=newer_key[0], game=newer_key[1], **search)
        if newer_key
        else None
    )
    return render_template(
        "history/index.html",
        nights=nights,
        text=text,
        found=found,
        older=older,
        newer=newer,
        paged=bool(after or before),
    )


def read_game_cursor(name: str) -> int | None:
    value = request.args.get(name)
    if value is None:
        return None
    if not value.isascii() or not value.isdigit() or not 0 < int(value) < 2**63:
        abort(404, gettext("There is no such page of this night."))
    return int(value)


@bp.get("/nights/<night>")
@validators.group_page_cached("night")
def night(night: str):
    """One night's games, each with its players in seat order and their places, a page of
    GAMES_PER_PAGE at a time (``?after=ID``: the older games, ``?before=ID``: the newer)."""
    try:
        day = stats.parse_date(night)
    except ValueError:
        abort(404, gettext("There is no such night."))
    db = get_db()
    count = clubnights.night_game_count(db, day)
    if not count:
        abort(404, gettext("No game was played on %(night)s.", night=figures.night_label(day)))
    after, before = read_game_cursor("after"), read_game_cursor("before")
    where, params = ["g.night = ?"], [day]
    if before is not None:
        where.append("g.id > ?")
        params.append(before)
    elif after is not None:
        where.append("g.id < ?")
        params.append(after)
    ids = [
        i for _, i in _page_ids(db, where, params, newer=before is not None, limit=GAMES_PER_PAGE)
    ]
    rows = _game_rows(db, f"g.id in ({', '.join('?' * len(ids))})", ids) if ids else []
    standings: dict[int, list[dict[str, Any]]] = {}
    for row in db.query(
        "select gp.game_id, p.id, p.name, gp.total, gp.rank from game_players gp "
        "join players p on p.id = gp.player_id "
        f"where gp.game_id in ({', '.join('?' * len(ids))}) order by gp.game_id, gp.seat",
        ids,
    ):  # seat order, as played
        standings.setdefault(row["game_id"], []).append(row)
    for row in rows:
        row["standings"] = standings.get(row["id"], [])
    older = newer = None
    if rows and _page_ids(
        db, ["g.night = ?", "g.id < ?"], [day, rows[-1]["id"]], newer=False, limit=1
    ):
        older = url_for("history.night", night=day, after=rows[-1]["id"])
    if rows and _page_ids(
        db, ["g.night = ?", "g.id > ?"], [day, rows[0]["id"]], newer=True, limit=1
    ):
        newer = url_for("history.night", night=day, before=rows[0]["id"])
    return render_template(
        "history/night.html",
        night=day,
        games=rows,
        count=count,
        night_rows=clubnights.night_standings(db, night=day)[:STANDINGS_SHOWN],
        older=older,
        newer=newer,
        clubs=list(
            db.query("select id, title from club_nights where night = ? order by id", [day])
        ),
        champion_rule=clubnights.CHAMPION_RULE,
    )


def deal_lines(stored: StoredGame) -> list[dict[str, Any]]:
    """Every deal of the game, in words, with its scores and the running totals after it."""
    game = stored.game
    scored = game.score()
    out = []
    for index, record in enumerate(game.deals):
        out.append(
            {
                "number": index + 1,
                "record": record,
                "king": game.players[record.king],
                "title": present.deal_title(record),
                "lines": present.describe(record, game.players, markup=True),
                "scores": scored.deals[index],
                "running": scored.running[index],
                "note": present.not_played_note(record, game.players, game, markup=True),
                "version": stored.deals[index]["version"],
            }
        )
    return out


@bp.get("/games/<int:game_id>")
@validators.group_page_cached("past game")
def game(game_id: int):
    """A game's record: standings, running totals, every deal and the kingdom grid; read-only."""
    stored = fetch_game(game_id)
    return render_template(
        "history/game.html",
        deals=deal_lines(stored),
        chart_keys=keys(stored.game.players),
        chart_height=RUNNING_HEIGHT,
        rules_line=rules_line(stored.row["rules_json"]),
        **game_context(stored),
    )


@bp.get("/games/<int:game_id>/correct")
def correct(game_id: int):
    """Choose the deal to correct; the correction keeps the earlier version in the history."""
    stored = fetch_game(game_id)
    return render_template(
        "history/correct.html", stored=stored, names=stored.game.players, deals=deal_lines(stored)
    )
