"""Players: the roster, a page per player, the leaderboard; renaming, merging two spellings and
deleting a player without games, for the group's admin; a misspelt name fixed in one game, for a
phone that keeps that game's score.

Games name their players by id, so a rename changes every game's name at once and a merge moves
one spelling's games onto the other; neither touches a score. Fixing a name in one game points
that game's seat at another player (``store.players.fix_seat_name``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import HiddenField, StringField

from ...engine.gamefile import NAME_LIMIT
from ...store import players, ratings, stats, storage
from ..making import figures, ratingview
from ..keeping import fragments, validators
from ..access import phones, rights
from ..access.database import get_db
from ..making.fields import form_int
from ..making.flashes import flash_message
from ..making.i18n import isolated, num
from ..making.messages import refusal
from ..making.paging import page_asked, pager_of

bp = Blueprint("players", __name__)
figures.install(bp)
ratingview.install(bp)
#: Rated games listed with their change on a player's page (the chart shows every one).
RATED_LISTED = 10


#: Why a table's phone does not fix a name in a club night's or a tournament's table: the
#: event's players are one list, which its organiser keeps.
EVENT_NAMES = lazy_gettext(
    "This game is a table of a club night or a tournament: only its organiser fixes names "
    "here (the phone that started it, one that opened its organiser link, or the group’s "
    "admin)."
)


class RenameForm(FlaskForm):
    name = StringField(lazy_gettext("New name"))


class MergeForm(FlaskForm):
    other = HiddenField()


class DeleteForm(FlaskForm):
    """Delete a player without games (the form is its CSRF token alone)."""


class SeatNameForm(FlaskForm):
    name = StringField(lazy_gettext("The name as it should be"))


def say(text: str, **names: str) -> Markup:
    """A translated message with player names put in, each in ``<bdi>``."""
    return escape(text) % {
        key: isolated(value) if isinstance(value, str) else value for key, value in names.items()
    }


def preset_labels() -> dict[str, str]:
    """The house-rule presets by name, in the page's language, for the leaderboard's filter."""
    return {
        "standard": gettext("Standard"),
        "complex": gettext("Complex"),
        "partnership": gettext("Partnership"),
        "custom": gettext("Custom"),
    }


# -- reading filters -----------------------------------------------------------------------
def read_filters(*, with_preset: bool = False) -> tuple[stats.Filters, list[str]]:
    """The date range (and preset) asked for in the query string, and what was wrong with it."""
    problems = []
    dates = {}
    for arg, label in (("from", gettext("From")), ("to", gettext("To"))):
        try:
            dates[arg] = stats.parse_date(request.args.get(arg))
        except ValueError:
            dates[arg] = None
            problems.append(
                gettext("“%(label)s” is not a date (YYYY-MM-DD); it was left out.", label=label)
            )
    preset = request.args.get("preset") or None
    if preset is not None and (not with_preset or preset not in stats.PRESET_CHOICES):
        problems.append(
            gettext("That is not one of the house-rule presets; all games are counted.")
        )
        preset = None
    if dates["from"] and dates["to"] and dates["from"] > dates["to"]:
        problems.append(gettext("“From” comes after “To”: the two dates were swapped."))
        dates["from"], dates["to"] = dates["to"], dates["from"]
    return stats.Filters(dates["from"], dates["to"], preset), problems


def fetch_player(pid: int) -> dict[str, Any]:
    row = stats.player(get_db(), pid)
    if row is None:
        abort(404, gettext("There is no such player."))
    return row


# -- pages ---------------------------------------------------------------------------------
#: Players listed per page of the roster: its memory and time the same at any size of group.
PLAYERS_PER_PAGE = 100
#: Other players listed per page of a player's head-to-head, and of their partners.
RIVALS_PER_PAGE = 20
#: Players listed per page of the leaderboard (``?page=N``).
BOARD_PER_PAGE = 25
#: The query arguments of a player's page that page its two lists of other players.
LISTS = ("rivals", "partners")


@bp.get("/players/")
@validators.group_page_cached("roster")
def roster():
    """Everyone, by name, a page of PLAYERS_PER_PAGE at a time (``?page=N``)."""
    db = get_db()
    count = stats.player_count(db)
    page_number, pages = page_asked("page", count, PLAYERS_PER_PAGE)
    rows = stats.roster(db, offset=(page_number - 1) * PLAYERS_PER_PAGE, limit=PLAYERS_PER_PAGE)
    return render_template(
        "players/roster.html", players=rows, page=page_number, pages=pages, count=count
    )


@bp.get("/players/<int:pid>")
@validators.group_page_cached("player", holds=(rights.is_admin,))
def show(pid: int):
    """One player over all their finished games, or over a date range."""
    db = get_db()
    player = fetch_player(pid)
    filters, problems = read_filters()
    form = stats.recent_form(db, pid, filters, count=10)
    rating = rated = None
    if ratingview.on():
        rating = ratings.of_players(db, [pid]).get(pid)
        rated = ratings.history(db, pid, latest=RATED_LISTED)[::-1]
    can_delete = rights.is_admin() and not players.game_count(db, pid)
    everyone = stats.others(db, pid, filters)
    lists = {"rivals": everyone.rivals, "partners": everyone.partners}
    asked = {name: page_asked(name, len(lists[name]), RIVALS_PER_PAGE) for name in LISTS}
    shown = {
        name: lists[name][(asked[name][0] - 1) * RIVALS_PER_PAGE :][:RIVALS_PER_PAGE]
        for name in LISTS
    }
    return render_template(
        "players/show.html",
        player=player,
        filters=filters,
        problems=problems,
        summary=stats.player_summary(db, pid, filters),
        play=stats.play_stats(db, pid, filters),
        recent=form.recent,
        run=form.run,
        rivals=shown["rivals"],
        partners=shown["partners"],
        pagers={name: list_pager(pid, filters, name, *asked[name]) for name in LISTS},
        can_change=rights.is_admin(),
        can_delete=can_delete,
        # made only for the admin: a form holds this phone's CSRF token, and a page that
        # holds none is kept for every phone (``validators.group_page_cached``)
        delete_form=DeleteForm(formdata=None) if can_delete else None,
        rating=rating,
        rated=rated,
        provisional_games=ratings.PROVISIONAL_GAMES,
    )


def list_pager(
    pid: int, filters: stats.Filters, name: str, page: int, pages: int
) -> dict[str, Any]:
    """The pager of the list *name* of a player's page: the page, how many, and the links to
    the pages before and after (the filters and the other list's page kept)."""
    kept = {**filters.args(), **{n: request.args[n] for n in LISTS if n in request.args}}

    def link(number: int) -> str:
        args = (
            {**kept, name: number} if number > 1 else {k: v for k, v in kept.items() if k != name}
        )
        return url_for("players.show", pid=pid, **args)

    return pager_of(page, pages, link)


@bp.route("/players/<int:pid>/rename", methods=["GET", "POST"])
def rename(pid: int):
    player = fetch_player(pid)
    rights.require_admin()
    form = RenameForm() if request.method == "POST" else RenameForm(data={"name": player["name"]})
    if request.method == "POST" and form.validate():
        try:
            name = players.rename_player(get_db(), pid, form.name.data or "")
        except players.Refused as exc:
            form.name.errors = [refusal(exc)]
        else:
            flash_message(
                "Renamed: %(old)s is now %(new)s. Every game of theirs shows the new name.",
                names={"old": player["name"], "new": name},
            )
            return redirect(url_for("players.show", pid=pid), 303)
    status = 400 if form.name.errors else 200
    return render_template("players/rename.html", player=player, form=form), status


@bp.route("/players/<int:pid>/merge", methods=["GET", "POST"])
def merge(pid: int):
    """Merge another spelling into this player: choose it, see what will happen, confirm."""
    db = get_db()
    player = fetch_player(pid)
    rights.require_admin()
    if request.method == "POST":
        form = MergeForm()
        other_id = form_int(form.other.data)
        if not form.validate() or other_id is None:
            abort(400, gettext("This form is incomplete. Open the merge page again."))
        other = stats.player(db, other_id)
        if other is None:
            flash_message("That spelling is gone already (merged or renamed meanwhile).")
            return redirect(url_for("players.show", pid=pid), 303)
        try:
            players.merge_players(db, pid, other_id)
        except players.Refused as exc:
            problem = refusal(exc)
        else:
            flash_message(
                "Merged: %(other)s’s games are now %(name)s’s.",
                names={"other": other["name"], "name": player["name"]},
            )
            return redirect(url_for("players.show", pid=pid), 303)
        return render_template(
            "players/merge.html", player=player, other=other, form=form, problem=problem, others=[]
        ), 400
    other_id = form_int(request.args.get("other"))
    if other_id is None:
        tablemates = {
            r["player_id"]
            for r in db.query(
                "select distinct b.player_id from game_players a join game_players b "
                "on b.game_id = a.game_id where a.player_id = ?",
                [pid],
            )
        }
        others = [p for p in stats.roster(db) if p["id"] not in tablemates | {pid}]
        return render_template("players/merge.html", player=player, others=others, other=None)
    other = stats.player(db, other_id)
    if other is None or other_id == pid:
        abort(404, gettext("There is no such player to merge."))
    shared = players.shared_game(db, pid, other_id)
    problem = (
        say(
            gettext(
                "%(name)s and %(other)s played in the same game (game %(number)s), "
                "so they are two people and cannot be merged."
            ),
            name=player["name"],
            other=other["name"],
            number=num(shared),
        )
        if shared is not None
        else None
    )
    counts = {row["id"]: row for row in stats.roster(db)}
    return render_template(
        "players/merge.html",
        player=player,
        other=other,
        others=[],
        form=MergeForm(data={"other": other_id}),
        problem=problem,
        games=counts.get(other_id, {}).get("games", 0),
    )


@bp.post("/players/<int:pid>/delete")
def delete(pid: int):
    """Delete a player who has no games (the group's admin only)."""
    player = fetch_player(pid)
    rights.require_admin()
    if not DeleteForm().validate():
        abort(400, gettext("This form is incomplete. Open the player’s page again."))
    try:
        players.delete_player(get_db(), pid)
    except players.Refused as exc:
        abort(400, refusal(exc))
    flash_message("%(name)s is deleted.", names={"name": player["name"]})
    return redirect(url_for("players.roster"), 303)


@bp.route("/games/<int:game_id>/seats/<int:seat>/name", methods=["GET", "POST"])
@rights.edit_required
def fix_name(game_id: int, seat: int):
    """Put right a misspelt name in this game alone (a phone that keeps its score)."""
    stored = storage.load_game(get_db(), game_id)
    if stored is None or not 0 <= seat <= 3:
        abort(404, gettext("There is no such player in this game."))
    name = stored.game.players[seat]
    form = SeatNameForm() if request.method == "POST" else SeatNameForm(data={"name": name})
    event = phones.event_organiser(game_id)
    status = 200
    if request.method == "POST" and event is False:  # a table's phone, not the organiser
        form.validate()
        form.name.errors, status = [EVENT_NAMES], 403
    elif request.method == "POST" and form.validate():
        try:
            fixed = players.fix_seat_name(
                get_db(), game_id, seat, form.name.data or "", club_nights_too=rights.is_admin()
            )
        except players.Refused as exc:
            form.name.errors = [refusal(exc)]
        except LookupError:
            abort(404, gettext("There is no such player in this game."))
        else:
            if fixed != name:
                flash_message(
                    "In this game, %(old)s is now %(new)s. Other games are as they were.",
                    names={"old": name, "new": fixed},
                )
            return redirect(url_for("access.share", game_id=game_id), 303)
    if status == 200 and form.name.errors:
        status = 400
    return render_template(
        "players/fix_name.html",
        stored=stored,
        seat=seat,
        name=name,
        form=form,
        limit=NAME_LIMIT,
        event=event,
    ), status


@bp.get("/players/chances.json")
def chances():
    """Each of four players' chance of winning, as New game shows it while the names are typed:
    ``names`` four times in seat order, ``partnership`` when partners sit opposite. The chances
    are printed as the page prints them (the phone's digits); null unless the four are players
    the group knows and the group keeps ratings."""
    found = ratingview.chances_of(
        request.args.getlist("names"), request.args.get("partnership") == "1"
    )
    response = jsonify(chances=None if found is None else [ratingview.chance(c) for c in found])
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/leaderboard")
@validators.group_page_cached("leaderboard")
def leaderboard():
    """Every player's finished games in a date range and under a preset, side by side."""
    filters, problems = read_filters(with_preset=True)
    rated = ratingview.on()
    default = "rating" if rated else "wins"
    sort = request.args.get("sort", default)
    if sort not in stats.SORTS or (sort == "rating" and not rated):
        sort = default
    labels = preset_labels()
    db = get_db()
    page, pages = page_asked("page", stats.leaderboard_count(db, filters), BOARD_PER_PAGE)
    start = (page - 1) * BOARD_PER_PAGE
    board = fragments.leaderboard(db, filters, sort, rated, offset=start, limit=BOARD_PER_PAGE)
    kept = {**filters.args(), **({"sort": sort} if "sort" in request.args else {})}

    def link(number: int) -> str:
        return url_for("players.leaderboard", **kept, **({"page": number} if number > 1 else {}))

    return render_template(
        "players/leaderboard.html",
        board=board,
        pager=pager_of(page, pages, link),
        filters=filters,
        problems=problems,
        presets=[(p, labels.get(p, p.title())) for p in stats.PRESET_CHOICES],
    )
