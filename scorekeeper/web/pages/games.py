"""Games: start one, see it (standings, kingdom grid, next deal, game over), its history."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm

from ...engine import read_deal
from ...store import keys, ratings, storage
from ...store.refused import Refused
from ...store.storage import StoredGame
from ..access import phones, rights
from ..making import present, ratingview
from ..keeping import validators
from ..access.database import get_db
from ..making.fields import form_int
from ..making.flashes import flash_message, flash_refusal, flash_words
from ..making.forms import (
    LIMITS,
    NewGameForm,
    new_game_data,
    player_label,
    preset_settings,
    tonight,
)
from ..making.messages import problem_text

bp = Blueprint("games", __name__, url_prefix="/games")


def fetch_game(game_id: int) -> StoredGame:
    """The stored game, or a 404 page."""
    stored = storage.load_game(get_db(), game_id)
    if stored is None:
        abort(404, _("There is no game %(number)s.", number=game_id))
    return stored


def seat_arg(name: str) -> int | None:
    """A seat named in the query string; a player that does not exist is a 404."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if value not in ("0", "1", "2", "3"):
        abort(404, _("There is no such player in this game."))
    return int(value)


@bp.route("/new", methods=["GET", "POST"])
@rights.join_required
def new():
    """Four players, their seats, the house rules, who holds the 7♥; title and date."""
    if request.method == "POST":
        form = NewGameForm()
        token = form.token.data or None
        if token is not None and not storage.FORM_TOKEN.fullmatch(token):
            abort(400, _("This form is incomplete. Open New game again."))
        asked = {}
        if form.validate() and not (asked := look_alikes(form)) and form.validate():
            try:
                game_id = storage.create_game(
                    get_db(),
                    title=(form.title.data or "").strip(),
                    played_on=(form.played_on.data or "").strip() or None,
                    players=form.names(),
                    rules=form.rules,
                    first_king=form.first_king.data,
                    token=token,
                    pin_hash=keys.pin_hash(form.pin.data) if form.pin.data else None,
                    confirm=bool(form.confirm.data),
                    started_by=phones.phone_id(create=True),
                )
            except storage.DuplicateToken as exc:  # sent twice: the game the first one started
                game_id = exc.saved["game_id"]
                flash_words(
                    lazy_gettext("Already started: this is the game. Nothing was recorded twice.")
                )
            # the phone that starts a game keeps its score (holding the form's token is proof)
            rights.grant_game(game_id)
            return redirect(url_for("games.show", game_id=game_id), 303)
        status = 400
    else:
        source = request.args.get("from", type=int)
        if "from" in request.args and source is None:
            abort(404, _("There is no such game."))
        earlier = games_of_the_night(tonight().isoformat())
        if source is not None:
            game = fetch_game(source).game
            data = new_game_data(dict(enumerate(game.players)), game.rules, earlier=earlier)
        else:
            data = new_game_data(earlier=earlier)
        form = NewGameForm(data={**data, "token": storage.new_form_token()})
        status, asked = 200, {}
    names = [form[f"player_{s}"].data or "" for s in range(4)]
    form.first_king.options = [(s, names[s].strip() or player_label(s)) for s in range(4)]
    chances = ratingview.chances_of(
        names,
        bool(form.partnership.data)
        if form.preset.data == "custom"
        else form.preset.data == "partnership",
    )
    return render_template(
        "new_game.html",
        form=form,
        names=names,
        chances=chances,
        asked=asked,
        known_names=storage.known_names(get_db()),
        presets=preset_settings(),
        limits=LIMITS,
    ), status


def look_alikes(form: NewGameForm) -> dict[int, tuple[str, str]]:
    """Each seat whose name looks like a known player's (``storage.look_alike``) and is not
    answered yet: its name and the known one, the question next to its field. A seat answered
    "the same person" takes the known name; "another player" keeps its own (the answer holds
    for the name it was given for)."""
    db = get_db()
    asked = {}
    for seat, name in enumerate(form.names()):
        known = storage.look_alike(db, name)
        if known is None:
            continue
        answer = (
            request.form.get(f"alike_{seat}")
            if request.form.get(f"alike_of_{seat}") == name
            else None
        )
        if answer == "same":
            form[f"player_{seat}"].data = known
        elif answer != "other":
            form[f"player_{seat}"].errors.append(
                _("%(name)s is already a player: the same person?", name=known)
            )
            asked[seat] = (name, known)
    return asked


def games_of_the_night(night: str) -> int:
    """How many games the night of *night* (a date) holds already."""
    return get_db().execute("select count(*) from games where night = ?", [night]).fetchone()[0]


def game_context(stored: StoredGame) -> dict:
    """Everything the game page and its partials show."""
    game = stored.game
    progress = game.progress()
    scored = game.score()
    return {
        "stored": stored,
        "game": game,
        "names": game.players,
        "progress": progress,
        "scored": scored,
        "standings": present.standings(game.players, scored),
        "teams": present.teams(game.players, scored),
        "next": present.next_deal(game, progress),
        # a game stored before a check of the rules was added: which deal no longer passes
        "lapses": [problem_text(p, lapsed=True) for p in game.no_longer_passes],
    }


def seat_ids(game_id: int) -> list[int]:
    """The game's players' ids, in seat order."""
    return [
        r["player_id"]
        for r in get_db().query(
            "select player_id from game_players where game_id = ? order by seat", [game_id]
        )
    ]


def rating_context(stored: StoredGame, scored) -> dict:
    """The ratings a game page shows: before the first deal each seat's chance of winning, at
    the end each seat's change of rating (none when the group keeps no ratings)."""
    if stored.game.deals and not scored.is_over:
        return {}
    # other games, and the group's setting, change what is shown (or whether it is): the
    # page's key holds the ratings' version (``whole_page_cached(..., ratings=True)``)
    if not ratingview.on():
        return {}
    db = get_db()
    ids = seat_ids(stored.id)
    if len(ids) != 4:
        return {}
    if not stored.game.deals:
        return {"chances": ratings.chances(db, ids, stored.game.rules.partnership)}
    changes = ratings.changes_in(db, stored.id)
    return {"rating_changes": [changes.get(p) for p in ids]} if changes else {}


@bp.get("/<int:game_id>")
@validators.whole_page_cached("game", with_rights=True, ratings=True)
def show(game_id: int):
    """The game page: answered 304, or from the page kept, while the game, this phone's way of
    reading, its right to keep score and the ratings (which it shows before the first deal and
    at the end) are as they were (``validators``)."""
    stored = fetch_game(game_id)
    context = game_context(stored)
    return render_template("game.html", **context, **rating_context(stored, context["scored"]))


class FirstKingForm(FlaskForm):
    """Who holds the 7♥, said again before the first deal: a seat's button (``king``)."""


@bp.post("/<int:game_id>/first-king")
@rights.edit_required
def first_king(game_id: int):
    """Before the first deal, the first King (who holds the 7♥) changed: a club night's table
    is seated with player 1 first, and New game can be mistapped. The store refuses it once a
    deal is recorded."""
    stored = fetch_game(game_id)
    seat = form_int(request.form.get("king"), digits=1)
    if not FirstKingForm().validate_on_submit() or seat is None or seat > 3:
        abort(400, _("Choose who holds the 7♥."))
    try:
        storage.set_first_king(get_db(), game_id, seat)
    except Refused as exc:
        flash_refusal(exc)
    else:
        flash_message(
            "%(name)s holds the 7♥: the first King.", names={"name": stored.game.players[seat]}
        )
    return redirect(url_for("games.show", game_id=game_id), 303)


@bp.get("/<int:game_id>/history")
def history(game_id: int):
    """Every version of every deal, undone ones included, oldest first."""
    stored = fetch_game(game_id)
    rows = storage.history(get_db(), game_id)
    for row in rows:
        row["deal"] = read_deal(row["record"], row["number"], stored.game.players)[0]
    return render_template("history.html", stored=stored, names=stored.game.players, rows=rows)
