"""Export and import games in the game file format (GAME_FORMAT.md), from the pages and the CLI.

Export writes each game as the engine writes it, with ``scores`` and ``totals``. Import reads a
file with the engine (which recomputes every score and refuses a file whose given scores differ),
then stores all its games in one transaction: a refused file changes nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator

from flask import (Blueprint, Response, abort, current_app, redirect, render_template,
                   request, url_for)
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from markupsafe import Markup, escape
from sqlite_utils import Database
from werkzeug.exceptions import RequestEntityTooLarge

from ..engine import Game, InvalidResult, Problem, game_to_dict, loads
from ..engine.gamefile import MULTI_FORMAT, check_players
from ..web import access
from . import facts, storage
from .db import connect, get_db
from ..web.figures import night_label
from ..web.flashes import flash_message
from ..web.i18n import num
from ..web.messages import problem_text
from ..web.security import csrf
from .stats import parse_date

#: The largest file the import page takes; bigger files go through ``scorekeeper import``.
UPLOAD_LIMIT = 10 * 1024 * 1024


class ImportRefused(Exception):
    """The file cannot be imported; ``problems`` says why, one sentence each."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class ImportResult:
    ids: list[int] = field(default_factory=list)  # the games stored, in the file's order
    skipped: list[tuple[int, int]] = field(default_factory=list)  # (game in file, stored id)


# -- export --------------------------------------------------------------------------------
def stored_game(db: Database, game_id: int) -> Game | None:
    """The stored game as the engine reads it, with the keys an imported file brought along."""
    stored = storage.load_game(db, game_id)
    if stored is None:
        return None
    extra = json.loads(stored.row.get("extra_json") or "{}")
    return replace(stored.game, extra=tuple(extra.items())) if extra else stored.game


def game_json(game: Game) -> str:
    return json.dumps(game_to_dict(game, with_scores=True), ensure_ascii=False, indent=2)


def game_ids(db: Database, *, night: str | None = None) -> list[int]:
    """Every game's id in the order they were stored, or the games of one night."""
    if night is not None:
        return [r["id"] for r in db.query("select id from games where night = ? order by id",
                                          [night])]
    return [r["id"] for r in db.query("select id from games order by id")]


def iter_document(db: Database, ids: Iterable[int]) -> Iterator[str]:
    """A ``trex-games/1`` document, one game at a time, so a big export streams."""
    yield '{\n  "format": "%s",\n  "games": [' % MULTI_FORMAT
    first = True
    for game_id in ids:
        game = stored_game(db, game_id)
        if game is None:  # deleted while the export ran
            continue
        text = game_json(game).replace("\n", "\n    ")
        yield ("\n    " if first else ",\n    ") + text
        first = False
    yield "\n  ]\n}\n"


# -- import --------------------------------------------------------------------------------
def problem_line(problem: Problem) -> str:
    """One problem of a file as a sentence in the page's language, with the game of the file,
    the deal and the contract it is about."""
    return problem_text(problem, context=True)


def read_import(data: bytes | str) -> list[Game]:
    """The games of a file, checked and scored by the engine; raise ImportRefused."""
    try:
        games = loads(data)
    except InvalidResult as exc:
        raise ImportRefused([problem_line(p) for p in exc.problems]) from None
    except RecursionError:
        raise ImportRefused([problem_text(Problem("not_json", {"detail": gettext("nested too deeply")}))]
                            ) from None
    if not games:
        raise ImportRefused([gettext("The file holds no game.")])
    problems = []
    for number, game in enumerate(games, start=1):
        # Names are stored tidied (single spaces, NFC); two that become one are refused here.
        for problem in check_players([storage.clean_name(n) for n in game.players]):
            problems.append(replace(problem, game=number if len(games) > 1 else None))
    if problems:
        raise ImportRefused([problem_line(p) for p in problems])
    return games


def import_games(db: Database, games: list[Game]) -> ImportResult:
    """Store *games* in one transaction; a game already stored (same deals) is skipped."""
    result = ImportResult()
    with db.atomic():
        for number, game in enumerate(games, start=1):
            same = next(db.query("select id from games where fingerprint = ? limit 1",
                                 [facts.fingerprint(game)]), None)
            if same is not None:
                result.skipped.append((number, same["id"]))
                continue
            result.ids.append(_store(db, game))
    return result


def import_text(db: Database, data: bytes | str) -> ImportResult:
    return import_games(db, read_import(data))


def _store(db: Database, game: Game) -> int:
    names = [storage.clean_name(n) for n in game.players]
    stamp = storage.now()
    ids = [storage.player_id(db, n) for n in names]
    extra = dict(game.extra)
    game_id = db.table("games").insert({
        "title": game.title, "played_on": game.played_on,
        "rules_json": json.dumps(game.rules.to_dict()), "first_king": game.first_king,
        "created_at": stamp, "updated_at": stamp,
        "extra_json": json.dumps(extra, ensure_ascii=False) if extra else None,
    }).last_pk
    db.table("game_players").insert_all(
        {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(ids))
    scored = game.score()
    for number, (record, scores) in enumerate(zip(game.deals, scored.deals), start=1):
        deal_id = db.table("deals").insert({
            "game_id": game_id, "number": number, **storage._deal_values(record, scores),
            "token": None, "version": 1, "created_at": stamp, "updated_at": stamp,
        }).last_pk
        storage._history(db, deal_id, game_id, number, 1, record, scores, "create", None)
    storage._store_summary(db, game_id, game)
    return game_id


# -- the pages -----------------------------------------------------------------------------
bp = Blueprint("transfer", __name__)


class ImportForm(FlaskForm):
    file = FileField(lazy_gettext("Game file (.json)"))


def _download(body: Any, name: str, *, attach: bool) -> Response:
    response = Response(body, mimetype="application/json")
    disposition = "attachment" if attach else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{name}"'
    return response


def _stream(ids: list[int]) -> Iterator[str]:
    """The document, written while it is sent, from a connection of its own (the request's
    is closed when the view returns, before a streamed body is read)."""
    path = current_app.config["DATABASE"]

    def generate() -> Iterator[str]:
        db = connect(path)
        try:
            yield from iter_document(db, ids)
        finally:
            db.close()

    return generate()


def _attach() -> bool:
    return request.args.get("download") == "1"


@bp.get("/games/<int:game_id>/export.json")
def export_game(game_id: int):
    """One game as a ``trex-game/1`` document with its scores and totals."""
    game = stored_game(get_db(), game_id)
    if game is None:
        abort(404, gettext("There is no game %(number)s.", number=num(game_id)))
    day = f"-{game.played_on}" if game.played_on else ""
    return _download(game_json(game) + "\n", f"trex-game-{game_id}{day}.json", attach=_attach())


@bp.get("/history/nights/<night>/export.json")
def export_night(night: str):
    """Every game of one night as a ``trex-games/1`` document."""
    try:
        day = parse_date(night)
    except ValueError:
        abort(404, gettext("There is no such night."))
    ids = game_ids(get_db(), night=day)
    if not ids:
        abort(404, gettext("No game was played on %(night)s.", night=night_label(day)))
    return _download(_stream(ids), f"trex-night-{day}.json", attach=_attach())


@bp.get("/history/export.json")
def export_all():
    """Every game stored, as one ``trex-games/1`` document (a backup)."""
    return _download(_stream(game_ids(get_db())), f"trex-all-{storage.now()[:10]}.json",
                     attach=_attach())


@bp.route("/import", methods=["GET", "POST"])
def upload():
    """Import a game file; nothing is stored unless every game in it is sound."""
    if request.method == "GET":
        return render_template("transfer/import.html", form=ImportForm(), problems=[])
    request.max_content_length = UPLOAD_LIMIT
    try:
        form = ImportForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        return render_template("transfer/import.html", form=ImportForm(formdata=None), problems=[
            escape(gettext("The file is larger than %(size)s MB. Import it on the computer that "
                           "runs the scorekeeper: %(command)s.")) % {
                "size": num(UPLOAD_LIMIT // (1024 * 1024)),
                "command": Markup('<code lang="en">scorekeeper import FILE</code>')}]), 413
    if not valid and "csrf_token" in form.errors:
        return render_template("transfer/import.html", form=form, problems=[
            gettext("This form has expired or was sent from elsewhere. Reload the page and send "
                    "the file again.")]), 400
    sent = form.file.data
    if sent is None or not getattr(sent, "filename", ""):
        return render_template("transfer/import.html", form=form,
                               problems=[gettext("Choose a game file to import.")]), 400
    try:
        result = import_text(get_db(), sent.read())
    except ImportRefused as exc:
        return render_template("transfer/import.html", form=form, problems=exc.problems,
                               filename=sent.filename), 400
    for game_id in result.ids[-access.REMEMBERED_GAMES:]:
        access.grant_game(game_id)  # the phone that brought the games may correct them
    count = len(result.ids)
    if result.skipped and len(result.skipped) + count == 1:
        flash_message("This game is stored already (game %(number)s): not imported again.",
                      number=result.skipped[0][1])
    else:
        if count:
            flash_message("Imported %(num)s game.", "Imported %(num)s games.", count)
        else:
            flash_message("Nothing new to import.")
        for number, stored in result.skipped:
            flash_message("Game %(number)s of the file is stored already (game %(stored)s): "
                          "not imported again.", number=number, stored=stored)
    if count == 1:
        return redirect(url_for("history.game", game_id=result.ids[0]), 303)
    return redirect(url_for("history.index"), 303)


# The global CSRF check would read the upload under the app's small request limit before the
# view can raise it; the form checks its CSRF token itself when it is validated.
csrf.exempt(upload)
