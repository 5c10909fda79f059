"""Deals: choose the contract, enter the result, preview, save; thrown in; correct; undo.

Post/Redirect/Get throughout. Each entry form carries a one-time token that is stored with the
deal, so a repeated POST (back, reload, a double tap) lands on what was saved and records nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from markupsafe import Markup

from ...engine import InvalidResult, score_deal
from ...engine.contracts import Contract
from ...store import checks, closing, storage
from ...store.storage import StoredGame
from ..making import meanwhile, present
from ..access import phones
from ..making.boards import seating_after
from ..access.database import get_db
from ..making.dealforms import DealForm, EntryContext, form_class_for, reason_options, record_data
from ..making.fields import form_int
from ..making.flashes import flash_words
from ..making.forms import UndoForm
from ..making.i18n import isolated
from ..making.messages import problem_text, refusal
from ..keeping.readysheets import after_save
from ..access.rights import edit_required
from .games import fetch_game, game_context, seat_arg

bp = Blueprint("deals", __name__, url_prefix="/games/<int:game_id>")
#: The pages that write a deal: none opens on a game the next round is seated on.
WRITING = {"deals.new", "deals.create", "deals.thrown_in", "deals.edit", "deals.undo"}


@bp.before_request
def closed_guard():
    """A game the next round of its tournament or club night is seated on is closed: its
    writing pages answer 409 and say why (the store refuses the write itself too)."""
    game_id = (request.view_args or {}).get("game_id")
    if request.endpoint in WRITING and game_id is not None:
        refused = closing.closed(get_db(), game_id)
        if refused is not None:
            abort(409, refusal(refused))


def fetch_deal(stored: StoredGame, number: int) -> dict[str, Any]:
    """The current row of deal *number*, or a 404 page."""
    row = stored.deal_row(number)
    if row is None:
        abort(404, _("This game has no deal %(number)s.", number=number))
    return row


def game_over_guard(stored: StoredGame) -> None:
    if stored.game.progress().is_over:
        abort(
            400,
            _(
                "This game is over: there is no next deal. A recorded deal can still be "
                "corrected or undone from the game page."
            ),
        )


_int = form_int  # the web wing's one reading of a number sent by a form


def posted_context(*, thrown_in: bool) -> EntryContext:
    """The hidden fields of a posted entry form; malformed ones are a 400."""
    form = request.form
    king, number = _int(form.get("king")), _int(form.get("number"))
    version = _int(form.get("version")) if form.get("version") else None
    contracts: tuple[Contract, ...] | None = ()
    if not thrown_in:
        contracts = present.parse_contracts([form.get("contracts", "")])
    if (
        king is None
        or king > 3
        or number is None
        or contracts is None
        or not storage.FORM_TOKEN.fullmatch(form.get("token", ""))
    ):
        abort(400, _("This form is incomplete. Open the deal again from the game page."))
    return EntryContext(king, contracts, number, version)


def replayed(stored: StoredGame, checker: Callable, *, correcting: bool = False):
    """The answer to a form whose token was used already, or None when it was not.

    Sent again with the same entry (the same deal, the same result: back, reload, a double tap,
    an answer lost on the way), it lands on what the first one saved and records nothing. With
    another result (a form kept on the phone and filled in again), that result is not saved
    and never called saved: the entry comes back with what is recorded now, under a new token.
    """
    saved = storage.find_token(get_db(), request.form.get("token", ""))
    if saved is None:
        return None
    form = build_form(stored, posted_context(thrown_in=not request.form.get("contracts")), checker)
    return answer_used(stored, form, saved, correcting=correcting)


def answer_used(
    stored: StoredGame, form: DealForm, saved: dict[str, Any], *, correcting: bool = False
):
    action = "correct" if correcting else "create"
    if saved["game_id"] == stored.id and checks.same_entry(
        saved, action=action, number=form.context.number, raw=form.to_raw()
    ):
        return redirect_to_saved(saved)
    form.token.data = storage.new_form_token()
    form.form_errors.append(
        _(
            "This form was sent before, and deal %(number)s was saved from it with another result: "
            "this result is not saved. Here is what is recorded now: check it before sending this "
            "again.",
            number=saved["entered"],
        )
    )
    context, fresh = form.context, fetch_game(stored.id)
    if correcting:
        row = fresh.deal_row(context.number)
        deal_id = _int(form.deal.data)
        now = meanwhile.changed_deal(
            get_db(), fresh, context.number, deal_id, context.version, form.version_key.data
        )
        if row is not None and row["id"] == deal_id:
            form.version.data = row["version"]
            form.version_key.data = row["version_key"]
            form.context = EntryContext(
                context.king, context.contracts, context.number, row["version"]
            )
        return render_entry(fresh, form, 409, meanwhile=now, correcting=True)
    expected = len(fresh.game.deals) + 1
    form.number.data = expected
    form.context = EntryContext(context.king, context.contracts, expected)
    return render_entry(
        fresh, form, 409, meanwhile=meanwhile.recorded_since(fresh, min(context.number, expected))
    )


def redirect_to_saved(saved: dict[str, Any]):
    """A repeated POST: nothing new is recorded; show what the first one saved."""
    flash_words(lazy_gettext("Already saved: nothing was recorded twice."))
    if saved.get("number"):
        return redirect(
            url_for("deals.show", game_id=saved["game_id"], number=saved["number"]), 303
        )
    return redirect(url_for("games.show", game_id=saved["game_id"]), 303)


def render_entry(stored: StoredGame, form: DealForm, status: int = 200, **extra: Any):
    context = form.context
    template = "thrown_in.html" if not context.contracts else "entry.html"
    return render_template(
        template,
        stored=stored,
        form=form,
        ctx=context,
        names=stored.game.players,
        rules=stored.game.rules,
        **extra,
    ), status


def build_form(
    stored: StoredGame,
    context: EntryContext,
    checker: Callable,
    *,
    data: dict[str, Any] | None = None,
) -> DealForm:
    cls = form_class_for(context.contracts, stored.game.rules)
    hidden = {
        "king": context.king,
        "number": context.number,
        "version": context.version,
        "contracts": present.contracts_query(context.contracts),
    }
    form = (
        cls(data={**(data or {}), **hidden, "token": storage.new_form_token()})
        if data is not None
        else cls()
    )
    form.setup(context, stored.game.players, checker)
    if "reason" in form:
        game = stored.game
        progress = (
            game.progress()
            if context.number > len(game.deals)
            else checks.progress_before(game, context.number)
        )
        form.reason.options = reason_options(game.rules, progress.possible_throw_in_reasons())
    return form


def handle_post(
    stored: StoredGame, form: DealForm, save: Callable[[DealForm], Any], *, preview: bool = True
):
    """The posted entry form: preview it, save it, or show it again to change it."""
    step = request.form.get("step", "preview" if preview else "save")
    if step == "edit":
        return render_entry(stored, form)
    if not form.validate():
        return render_entry(stored, form, 400)
    if step != "save":
        return render_preview(stored, form)
    try:
        message = save(form)
    except storage.DuplicateToken as exc:  # the same form, sent twice at once
        return answer_used(stored, form, exc.saved, correcting=form.context.version is not None)
    except storage.Conflict as exc:
        form.form_errors.append(
            _(
                "%(what)s (another phone?). Check what is recorded now before sending this again.",
                what=refusal(exc),
            )
        )
        fresh = fetch_game(stored.id)
        if form.context.version is None:
            now = meanwhile.recorded_since(fresh, form.context.number)
        else:
            now = meanwhile.changed_deal(
                get_db(),
                fresh,
                form.context.number,
                _int(form.deal.data),
                form.context.version,
                form.version_key.data,
            )
        return render_entry(
            fresh, form, 409, meanwhile=now, correcting=form.context.version is not None
        )
    except InvalidResult as exc:
        for problem in exc.problems:
            form.show(problem)
        return render_entry(stored, form, 400)
    flash_words(message)
    return redirect(url_for("games.show", game_id=stored.id), 303)


def render_preview(stored: StoredGame, form: DealForm):
    record, new_game = form.record, form.new_game
    assert record is not None and new_game is not None
    scored = new_game.score()
    return render_template(
        "preview.html",
        stored=stored,
        form=form,
        ctx=form.context,
        record=record,
        names=stored.game.players,
        scores=score_deal(record, stored.game.rules),
        standings=present.standings(new_game.players, scored),
        teams=present.teams(new_game.players, scored),
        scored=scored,
        sweep=present.not_played_note(record, new_game.players, new_game),
    )


# -- the next deal -------------------------------------------------------------------------
def _chosen_king(stored: StoredGame):
    """The game's progress and the King of the next deal: the one named in the query (who must
    be one of the engine's choices), else the only choice there is, else None."""
    progress = stored.game.progress()
    king = seat_arg("king")
    if king is not None and king not in progress.next_kings():
        who = isolated(stored.game.players[king])
        abort(400, Markup(_("%(name)s cannot deal the next deal.")) % {"name": who})
    return progress, (king if king is not None else progress.king)


@bp.get("/deals/new")
@edit_required
def new(game_id: int):
    """Choose the King (if the table picks) and the contract, then the entry form."""
    stored = fetch_game(game_id)
    game_over_guard(stored)
    progress, king = _chosen_king(stored)
    next_deal = present.next_deal(stored.game, progress, king)
    if "contracts" not in request.args or king is None:
        return render_template(
            "choose.html", stored=stored, next=next_deal, names=stored.game.players
        )
    contracts = present.parse_contracts(request.args.getlist("contracts"))
    if contracts is None or contracts not in progress.deal_options():
        return render_template(
            "choose.html",
            stored=stored,
            next=next_deal,
            names=stored.game.players,
            error=_("That is not one of the choices left. Choose again."),
        ), 400
    context = EntryContext(king, contracts, progress.count + 1)
    return render_entry(stored, build_form(stored, context, _new_checker(stored), data={}))


def _new_checker(stored: StoredGame) -> Callable:
    return lambda raw: checks.check_new_deal(stored.game, raw)


def _save_new(stored: StoredGame) -> Callable[[DealForm], Any]:
    def save(form: DealForm) -> str:
        with seating_after(stored.id):  # the deal that ends a match seats the next round
            number = storage.add_deal(
                get_db(),
                stored.id,
                form.to_raw(),
                token=form.token.data,
                number=form.context.number,
                by=phones.current(stored),
            )
        if form.context.contracts:
            return lazy_gettext("Deal %(number)s saved.", number=number)
        return lazy_gettext("Deal %(number)s: thrown in. The King chooses again.", number=number)

    return save


def _check_number(stored: StoredGame, form: DealForm):
    """A form opened for another deal number than the next: another phone saved or undid a
    deal meanwhile. Show what is recorded now; sent again, the form is the next deal."""
    expected = len(stored.game.deals) + 1
    number = form.context.number
    if number != expected:
        if number < expected:
            form.form_errors.append(
                _(
                    "Deal %(number)s has been recorded meanwhile (another phone?). Here is what is "
                    "recorded now: check it before sending this again as deal %(expected)s.",
                    number=number,
                    expected=expected,
                )
            )
        else:
            form.form_errors.append(
                _(
                    "A deal has been undone meanwhile (another phone?). Sent again, this will be "
                    "deal %(expected)s.",
                    expected=expected,
                )
            )
        form.number.data = expected
        form.context = EntryContext(form.context.king, form.context.contracts, expected)
        return render_entry(stored, form, 409, meanwhile=meanwhile.recorded_since(stored, number))
    return None


@bp.post("/deals/new")
@edit_required
def create(game_id: int):
    stored = fetch_game(game_id)
    if (done := replayed(stored, _new_checker(stored))) is not None:
        return done
    context = posted_context(thrown_in=False)
    form = build_form(stored, context, _new_checker(stored))
    game_over_guard(stored)
    return _check_number(stored, form) or handle_post(stored, form, _save_new(stored))


@bp.route("/thrown-in", methods=["GET", "POST"])
@edit_required
def thrown_in(game_id: int):
    """A deal thrown in or redealt: it scores nothing and uses up no contract."""
    stored = fetch_game(game_id)
    if request.method == "POST":
        if (done := replayed(stored, _new_checker(stored))) is not None:
            return done
        context = posted_context(thrown_in=True)
        form = build_form(stored, context, _new_checker(stored))
        game_over_guard(stored)
        return _check_number(stored, form) or handle_post(
            stored, form, _save_new(stored), preview=False
        )
    game_over_guard(stored)
    progress, king = _chosen_king(stored)
    if king is None:
        return render_template(
            "choose.html",
            stored=stored,
            names=stored.game.players,
            next=present.next_deal(stored.game, progress),
            thrown_in=True,
        )
    context = EntryContext(king, (), progress.count + 1)
    return render_entry(stored, build_form(stored, context, _new_checker(stored), data={}))


@bp.post("/deals/preview.json")
@edit_required
def preview_json(game_id: int):
    """The entry form as it stands, checked and scored by the engine: the form's live preview.

    Nothing is saved. A correction is recognised by its version field.
    """
    stored = fetch_game(game_id)
    context = posted_context(thrown_in=False)
    if context.version is None:
        checker = _new_checker(stored)
    else:
        fetch_deal(stored, context.number)
        checker = _correction_checker(stored, context.number)
    form = build_form(stored, context, checker)
    if not form.validate():
        return jsonify(ok=False, problems=form.problems())
    assert form.record is not None and form.new_game is not None
    return jsonify(
        ok=True,
        **present.preview_rows(stored.game.players, form.record, stored.game.rules, form.new_game),
    )


# -- one recorded deal ---------------------------------------------------------------------
@bp.get("/deals/<int:number>")
def show(game_id: int, number: int):
    stored = fetch_game(game_id)
    row = fetch_deal(stored, number)
    record = stored.game.deals[number - 1]
    versions = storage.history(get_db(), game_id, row["id"])
    return render_template(
        "deal.html",
        stored=stored,
        number=number,
        row=row,
        record=record,
        names=stored.game.players,
        scores=stored.game.score().deals[number - 1],
        versions=versions,
        note=present.not_played_note(record, stored.game.players, stored.game),
    )


def _correction_checker(stored: StoredGame, number: int) -> Callable:
    return lambda raw: checks.check_correction(stored.game, number, raw)


def _save_correction(stored: StoredGame, number: int) -> Callable[[DealForm], Any]:
    def save(form: DealForm) -> str:
        if form.context.version is None:
            abort(400, _("This form is incomplete. Open the deal again from the game page."))
        with seating_after(stored.id):
            storage.correct_deal(
                get_db(),
                stored.id,
                number,
                form.to_raw(),
                token=form.token.data,
                version=form.context.version,
                deal_id=_int(form.deal.data),
                key=form.version_key.data or "",
                by=phones.current(stored),
            )
        return lazy_gettext(
            "Deal %(number)s corrected. The earlier version is in the history.", number=number
        )

    return save


@bp.route("/deals/<int:number>/edit", methods=["GET", "POST"])
@edit_required
def edit(game_id: int, number: int):
    """Correct a recorded deal; every later deal is checked again, every score recomputed."""
    stored = fetch_game(game_id)
    if (
        request.method == "POST"
        and (done := replayed(stored, _correction_checker(stored, number), correcting=True))
        is not None
    ):
        return done
    row = fetch_deal(stored, number)
    record = stored.game.deals[number - 1]
    checker = _correction_checker(stored, number)
    if request.method == "POST":
        context = posted_context(thrown_in=record.is_thrown_in)
        if context.number != number:
            abort(400, _("This form belongs to another deal. Open the deal again."))
        form = build_form(stored, context, checker)
        deal_id = _int(form.deal.data)
        if deal_id is None or context.version is None:
            abort(400, _("This form is incomplete. Open the deal again from the game page."))
        if not storage.deal_was_in(get_db(), game_id, deal_id):
            abort(404, _("That deal is not in this game. Open the deal again from the game page."))
        key = form.version_key.data or ""
        now = meanwhile.changed_deal(get_db(), stored, number, deal_id, context.version, key)
        if deal_id != row["id"]:
            form.form_errors.append(
                _(
                    "The deal you were correcting has been undone meanwhile (another phone?): deal "
                    "%(number)s is another deal now. Open it again from the game page.",
                    number=number,
                )
            )
            return render_entry(stored, form, 409, correcting=True, meanwhile=now)
        if context.version != row["version"] or key != row["version_key"]:
            form.form_errors.append(
                _(
                    "Deal %(number)s has been changed meanwhile (another phone?). Here is what "
                    "changed: check it before sending this again.",
                    number=number,
                )
            )
            form.version.data = row["version"]
            form.version_key.data = row["version_key"]
            form.context = EntryContext(context.king, context.contracts, number, row["version"])
            return render_entry(stored, form, 409, correcting=True, meanwhile=now)
        return handle_post(
            stored, form, _save_correction(stored, number), preview=not record.is_thrown_in
        )
    contracts = record.contracts
    options = checks.other_contracts(stored.game, number)  # offered: none a later deal played
    if "contracts" in request.args and not record.is_thrown_in:
        contracts = present.parse_contracts(request.args.getlist("contracts"))
        possible = checks.progress_before(stored.game, number).deal_options()
        if contracts is None or contracts not in possible + [record.contracts]:
            abort(400, _("That is not one of the contracts this deal could have been."))
    context = EntryContext(record.king, contracts, number, row["version"])
    form = build_form(stored, context, checker, data=record_data(record))
    form.deal.data = row["id"]
    form.version_key.data = row["version_key"]
    return render_entry(
        stored,
        form,
        correcting=True,
        options=[
            (present.contracts_label(o), present.contracts_query(o))
            for o in options
            if o != contracts
        ],
    )


@bp.route("/deals/<int:number>/undo", methods=["GET", "POST"])
@edit_required
def undo(game_id: int, number: int):
    """Take a deal out of the game; it stays in the history."""
    stored = fetch_game(game_id)
    problems: list[str] = []
    if request.method == "POST":
        form = UndoForm()
        deal_id, version = _int(form.deal_id.data), _int(form.version.data)
        if not form.validate() or deal_id is None or version is None:
            abort(400, _("This form is incomplete. Open the deal again from the game page."))
        key = form.version_key.data or ""
        try:
            undone = storage.undo_deal(get_db(), game_id, deal_id, version=version, key=key)
        except storage.NotFound:
            if not storage.deal_was_in(get_db(), game_id, deal_id):
                abort(404, _("That deal is not in this game. Open it again from the game page."))
            if storage.undone_version(get_db(), game_id, deal_id, key):
                flash_words(lazy_gettext("That deal had already been undone."))
                return redirect(url_for("games.show", game_id=game_id), 303)
            return _undo_stale(fetch_game(game_id), number, deal_id, version, key)
        except storage.Conflict:
            return _undo_stale(fetch_game(game_id), number, deal_id, version, key)
        except InvalidResult as exc:
            problems = [problem_text(p, context=True) for p in exc.problems]
        else:
            flash_words(
                lazy_gettext(
                    "Deal %(number)s undone. It stays in the game's history.", number=undone
                )
            )
            return redirect(url_for("games.show", game_id=game_id), 303)
    row = fetch_deal(stored, number)
    if request.method == "GET":
        form = undo_form(row)
    record = stored.game.deals[number - 1]
    return render_template(
        "undo.html",
        stored=stored,
        number=number,
        record=record,
        names=stored.game.players,
        form=form,
        problems=problems,
        scores=stored.game.score().deals[number - 1],
        later=len(stored.game.deals) - number,
    ), 400 if problems else 200


def undo_form(row: dict[str, Any]) -> UndoForm:
    """The undo form of the deal of *row*, naming its id, its version and that version's key."""
    return UndoForm(
        data={"deal_id": row["id"], "version": row["version"], "version_key": row["version_key"]}
    )


def _undo_stale(stored: StoredGame, number: int, deal_id: int, version: int, key: str):
    """The undo form named a version of the deal that is no longer the one recorded (changed
    meanwhile, or undone and another deal entered in its place): nothing is undone; the deal
    as it is now, and, while there is one, its undo form for that version."""
    row = stored.deal_row(number)
    form = undo_form(row) if row is not None else None
    return meanwhile.stale_page(
        "undo_stale.html", stored, number, deal_id, version, key, row=row, form=form
    )


__all__ = ["bp", "game_context"]


@bp.after_request
def sheet_after_save(response):
    """A POST answered with a redirect saved, corrected or undid a deal (or found it saved
    already): the printed sheet is made ready in the background (web/keeping/readysheets.py)."""
    if request.method == "POST" and response.status_code == 303 and request.view_args:
        after_save(request.view_args["game_id"])
    return response
