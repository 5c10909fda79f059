"""Home: games in progress (resume with one tap), recent nights, and "New game"."""

from __future__ import annotations

from itertools import groupby

from flask import Blueprint, render_template

from ...store import storage
from ..access.database import get_db
from ..keeping import validators
from ..making.present import tell_apart

bp = Blueprint("home", __name__)
RECENT_GAMES = 40


@bp.get("/")
@validators.group_page_cached("home")
def index():
    db = get_db()
    in_progress = storage.list_games(db, finished=False)
    finished = storage.list_games(db, finished=True, limit=RECENT_GAMES)
    tell_apart(in_progress + finished)
    finished.sort(key=lambda g: (g["played_on"] or "", g["updated_at"]), reverse=True)
    nights = [(day, list(games)) for day, games in groupby(finished, key=lambda g: g["played_on"])]
    return render_template("home.html", in_progress=in_progress, nights=nights)
