"""Past nights: games grouped by date, a search by player, and each game's record, read-only.

The lists read the per-game summary that storage keeps (totals, winners, finished) and page by
nights, so a page costs the same however many games the install holds.
"""
from __future__ import annotations

import json
from itertools import groupby
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext

from ...store import clubnights, stats, storage
from ...store.storage import StoredGame
from .. import figures, present
from ..database import get_db
from ..rulestext import rules_text
from .games import fetch_game, game_context

bp = Blueprint("history", __name__, url_prefix="/history")
figures.install(bp)
NIGHTS_PER_PAGE = 10


def rules_line(rules_json: str) -> str:
    """The one-line summary of a stored game's house rules, in the page's language."""
    text = rules_text(rules_json)
    return text[:1].upper() + text[1:]


def matching_players(db, text: str) -> list[dict[str, Any]]:
    """Players whose name contains *text*, ignoring case and extra spaces."""
    key = storage.name_key(text)
    if not key:
        return []
    return list(db.query("select id, name from players where instr(name_key, ?) > 0 "
                         "order by name_key", [key]))


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


def nights_page(db, *, before: str | None, player_ids: list[int] | None,
                ) -> tuple[list[tuple[str, list[dict[str, Any]]]], str | None]:
    """Up to NIGHTS_PER_PAGE nights before *before* (newest first) and the next page's key."""
    where, params = ["1 = 1"], []
    if before:
        where.append("g.night < ?")
        params.append(before)
    if player_ids is not None:
        marks = ", ".join("?" * len(player_ids)) or "null"
        where.append(f"g.id in (select game_id from game_players where player_id in ({marks}))")
        params += player_ids
    nights = [r["night"] for r in db.query(
        f"select distinct g.night from games g where {' and '.join(where)} "
        f"order by g.night desc limit ?", [*params, NIGHTS_PER_PAGE + 1])]
    more = nights[NIGHTS_PER_PAGE] if len(nights) > NIGHTS_PER_PAGE else None
    nights = nights[:NIGHTS_PER_PAGE]
    if not nights:
        return [], None
    rows = _game_rows(db, " and ".join([*where, "g.night >= ?", "g.night <= ?"]),
                      [*params, nights[-1], nights[0]])
    grouped = [(night, list(games)) for night, games in groupby(rows, key=lambda r: r["night"])]
    return grouped, nights[-1] if more else None


@bp.get("/")
def index():
    """Past nights, newest first; ``?player=`` searches by name, ``?before=`` pages back."""
    db = get_db()
    text = request.args.get("player", "").strip()[:80]
    try:
        before = stats.parse_date(request.args.get("before"))
    except ValueError:
        abort(404, gettext("There is no such page of past nights."))
    found = matching_players(db, text) if text else None
    nights, next_key = nights_page(db, before=before,
                                   player_ids=[p["id"] for p in found] if found is not None
                                   else None)
    older = (url_for("history.index", before=next_key, **({"player": text} if text else {}))
             if next_key else None)
    return render_template("history/index.html", nights=nights, text=text, found=found,
                           older=older, before=before)


@bp.get("/nights/<night>")
def night(night: str):
    """One night's games, each with its players in seat order and their places."""
    try:
        day = stats.parse_date(night)
    except ValueError:
        abort(404, gettext("There is no such night."))
    rows = _game_rows(get_db(), "g.night = ?", [day])
    if not rows:
        abort(404, gettext("No game was played on %(night)s.", night=figures.night_label(day)))
    standings: dict[int, list[dict[str, Any]]] = {}
    for row in get_db().query(
            "select gp.game_id, p.id, p.name, gp.total, gp.rank from game_players gp "
            "join players p on p.id = gp.player_id join games g on g.id = gp.game_id "
            "where g.night = ? order by gp.game_id, gp.seat", [day]):  # seat order, as played
        standings.setdefault(row["game_id"], []).append(row)
    for row in rows:
        row["standings"] = standings.get(row["id"], [])
    return render_template("history/night.html", night=day, games=rows,
                           night_rows=clubnights.night_standings(get_db(), [r["id"] for r in rows]),
                           clubs=list(get_db().query(
                               "select id, title from club_nights where night = ? order by id",
                               [day])),
                           champion_rule=clubnights.CHAMPION_RULE)


def deal_lines(stored: StoredGame) -> list[dict[str, Any]]:
    """Every deal of the game, in words, with its scores and the running totals after it."""
    game = stored.game
    scored = game.score()
    out = []
    for index, record in enumerate(game.deals):
        out.append({
            "number": index + 1, "record": record, "king": game.players[record.king],
            "title": present.deal_title(record),
            "lines": present.describe(record, game.players, markup=True),
            "scores": scored.deals[index], "running": scored.running[index],
            "note": present.not_played_note(record, game.players, game, markup=True),
            "version": stored.deals[index]["version"],
        })
    return out


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    """A game's record: standings, running totals, every deal and the kingdom grid; read-only."""
    stored = fetch_game(game_id)
    return render_template("history/game.html", deals=deal_lines(stored),
                           rules_line=rules_line(stored.row["rules_json"]), **game_context(stored))


@bp.get("/games/<int:game_id>/correct")
def correct(game_id: int):
    """Choose the deal to correct; the correction keeps the earlier version in the history."""
    stored = fetch_game(game_id)
    return render_template("history/correct.html", stored=stored, names=stored.game.players,
                           deals=deal_lines(stored))
