"""Export and import from the pages: a game, a night or everything as a game file, and the
import page (the work itself is the store's, ``store.transfer``)."""

from __future__ import annotations

from typing import Any, Iterator

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from markupsafe import Markup, escape
from werkzeug.exceptions import RequestEntityTooLarge

from ..access import groupspace
from ...store import storage
from ...store.db import connect
from ...store.stats import parse_date
from ...store.transfer import (
    ImportRefused,
    game_ids,
    game_json,
    has_games,
    import_text,
    iter_document,
    stored_game,
)
from ..keeping import inflight
from ..access import rights
from ..access.database import get_db
from ..making.figures import night_label
from ..making.flashes import flash_message, flash_plural
from ..making.i18n import num
from ..making.messages import problem_text
from ..access.security import csrf

#: The largest file the import page takes; bigger files go through ``scorekeeper import``.
UPLOAD_LIMIT = 10 * 1024 * 1024

bp = Blueprint("transfer", __name__)


class ImportForm(FlaskForm):
    file = FileField(lazy_gettext("Game file (.json)"))


def _download(body: Any, name: str, *, attach: bool) -> Response:
    response = Response(body, mimetype="application/json")
    disposition = "attachment" if attach else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{name}"'
    return response


def _stream(night: str | None) -> Iterator[str]:
    """The document of every game (or one night's), written game by game while it is sent,
    from a connection of its own (the request's is closed when the view returns, before a
    streamed body is read): its memory is one game's, however many games the group holds.

    A slow reader holds a server thread while the body is more than the server buffers, so
    at most :data:`inflight.EXPORTS_AT_ONCE` exports stream at once: past it, 503 with
    ``Retry-After``. A stream holds its place from its first game to its end or its close."""
    inflight.EXPORTS.check_room()
    path = groupspace.database_path()

    def generate() -> Iterator[str]:
        with inflight.EXPORTS.holding():
            db = connect(path, create=False)
            try:
                yield from iter_document(db, game_ids(db, night=night))
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
    if not has_games(get_db(), night=day):
        abort(404, gettext("No game was played on %(night)s.", night=night_label(day)))
    return _download(_stream(day), f"trex-night-{day}.json", attach=_attach())


@bp.get("/history/export.json")
def export_all():
    """Every game stored, as one ``trex-games/1`` document (a backup)."""
    return _download(_stream(None), f"trex-all-{storage.now()[:10]}.json", attach=_attach())


@bp.route("/import", methods=["GET", "POST"])
@rights.join_required
def upload():
    """Import a game file; nothing is stored unless every game in it is sound."""
    if request.method == "GET":
        return render_template("transfer/import.html", form=ImportForm(), problems=[])
    request.max_content_length = UPLOAD_LIMIT
    try:
        form = ImportForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        return render_template(
            "transfer/import.html",
            form=ImportForm(formdata=None),
            problems=[
                escape(
                    gettext(
                        "The file is larger than %(size)s MB. Import it on the computer that "
                        "runs the scorekeeper: %(command)s."
                    )
                )
                % {
                    "size": num(UPLOAD_LIMIT // (1024 * 1024)),
                    "command": Markup('<code lang="en">scorekeeper import FILE</code>'),
                }
            ],
        ), 413
    if not valid and "csrf_token" in form.errors:
        return render_template(
            "transfer/import.html",
            form=form,
            problems=[
                gettext(
                    "This form has expired or was sent from elsewhere. Reload the page and send "
                    "the file again."
                )
            ],
        ), 400
    sent = form.file.data
    if sent is None or not getattr(sent, "filename", ""):
        return render_template(
            "transfer/import.html", form=form, problems=[gettext("Choose a game file to import.")]
        ), 400
    try:
        result = import_text(get_db(), sent.read())
    except ImportRefused as exc:
        problems = [problem_text(p, context=True) for p in exc.problems]
        return render_template(
            "transfer/import.html", form=form, problems=problems, filename=sent.filename
        ), 400
    for game_id in result.ids[-rights.REMEMBERED_GAMES :]:
        rights.grant_game(game_id)  # the phone that brought the games may correct them
    count = len(result.ids)
    if result.skipped and len(result.skipped) + count == 1:
        flash_message(
            "This game is stored already (game %(number)s): not imported again.",
            number=result.skipped[0][1],
        )
    else:
        if count:
            flash_plural("Imported %(num)s game.", "Imported %(num)s games.", count)
        else:
            flash_message("Nothing new to import.")
        for number, stored in result.skipped:
            flash_message(
                "Game %(number)s of the file is stored already (game %(stored)s): "
                "not imported again.",
                number=number,
                stored=stored,
            )
    if count == 1:
        return redirect(url_for("history.game", game_id=result.ids[0]), 303)
    return redirect(url_for("history.index"), 303)


# The global CSRF check would read the upload under the app's small request limit before the
# view can raise it; the form checks its CSRF token itself when it is validated.
csrf.exempt(upload)
