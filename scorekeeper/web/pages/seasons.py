"""A season's page (issue 31): the standings over its nights, its champion and the rule that
names them, its best night and its hall of records, each record linked to its game; and its
poster, one page as a PDF or as the PNG the Share button sends. Seasons are added in Settings
(``pages/settings.py``); every figure is the store's (``store.seasons``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from ...store import ratings, seasons
from ..access import rights
from ..access.database import get_db
from ..keeping import validators
from ..making.flashes import flash_message
from ..keeping.printer import printed, printed_png
from ..keeping.printouts import pdf_response, print_language, slug
from ..keeping.readysheets import sheet_digits
from ..making.paging import page_asked, pager_of
from ..making.sharing import season_text

bp = Blueprint("seasons", __name__, url_prefix="/seasons")
#: Players listed per page of a season's standings (``?page=N``): the champion, the share
#: text and the poster count every player all the same.
STANDINGS_PER_PAGE = 25


def fetch_season(season_id: int) -> seasons.Season:
    season = seasons.get(get_db(), season_id)
    if season is None:
        abort(404, gettext("There is no such season."))
    return season


def season_figures(season: seasons.Season) -> dict[str, Any]:
    """What the page and the poster show: the standings, the best night and the records."""
    db = get_db()
    rows = seasons.standings(db, season.first_night, season.last_night)
    hall = seasons.hall(db, season.first_night, season.last_night)
    return {
        "rows": rows,
        "best_night": hall.best_night,
        "records": [
            {**dataclasses.asdict(record), "title": stat.title, "shown": stat.shown}
            for stat in seasons.RECORDS
            if (record := hall.records.get(stat.kind)) is not None
        ],
        "ratings": ratings.enabled(db),
    }


def record_rules() -> list[str]:
    """The rule of each record the hall declares, as the page and the poster state them."""
    return [stat.rule for stat in seasons.RECORDS]


def share_of(season: seasons.Season, figures: dict[str, Any]) -> dict[str, str]:
    return {
        "text": season_text(season.name, figures["rows"], seasons.CHAMPION_RULE),
        "image": url_for("seasons.poster_png", season_id=season.id),
        "page": url_for("seasons.show", season_id=season.id),
    }


@bp.get("/<int:season_id>")
@validators.group_page_cached("season", holds=(rights.may_start_games,))
def show(season_id: int):
    season = fetch_season(season_id)
    figures = season_figures(season)
    page, pages = page_asked("page", len(figures["rows"]), STANDINGS_PER_PAGE)
    start = (page - 1) * STANDINGS_PER_PAGE

    def link(number: int) -> str:
        return url_for(
            "seasons.show", season_id=season_id, **({"page": number} if number > 1 else {})
        )

    return render_template(
        "seasons/show.html",
        shown=figures["rows"][start : start + STANDINGS_PER_PAGE],
        pager=pager_of(page, pages, link),
        season=season,
        champion_rule=seasons.CHAMPION_RULE,
        record_rules=record_rules(),
        ties=seasons.TIES,
        share=share_of(season, figures) if figures["rows"] else None,
        # a link to the form rather than the form: the page holds no CSRF token, so it is
        # kept for every phone that may remove it (``validators.group_page_cached``)
        may_remove=rights.may_start_games(),
        **figures,
    )


@bp.route("/<int:season_id>/remove", methods=["GET", "POST"])
def remove(season_id: int):
    """Remove a season (one added by mistake): its games stay as they are. GET: the form
    that asks first."""
    season = fetch_season(season_id)
    if not rights.may_start_games():
        abort(403, gettext(seasons.WHO_MAY))
    if request.method == "GET":
        return render_template("seasons/remove.html", season=season, form=FlaskForm())
    if not FlaskForm().validate():
        abort(400, gettext("This form is incomplete. Open Settings again."))
    seasons.delete(get_db(), season_id)
    flash_message("The season is removed; its games are as they were.")
    return redirect(url_for("settings.show", _anchor="seasons"), 303)


def poster_params(season: seasons.Season, lang: str) -> dict[str, Any]:
    """Every parameter of the poster: the figures, the words' msgids, language and digits."""
    figures = season_figures(season)
    return {
        "name": season.name,
        "first_night": season.first_night,
        "last_night": season.last_night,
        "rows": figures["rows"],
        "records": figures["records"],
        "best_night": figures["best_night"],
        "ratings": figures["ratings"],
        "rule": seasons.CHAMPION_RULE,
        "record_rules": record_rules(),
        "ties": seasons.TIES,
        "lang": lang,
        "digits": sheet_digits(),
    }


@bp.get("/<int:season_id>/poster.pdf")
def poster_pdf(season_id: int):
    """The season on one page, to print or to send."""
    season = fetch_season(season_id)
    data = printed("season", "season_pdf", **poster_params(season, print_language()))
    return pdf_response(data, f"{slug(season.name) or 'season'}.pdf")


@bp.get("/<int:season_id>/poster.png")
def poster_png(season_id: int):
    """The poster's page as the PNG the Share button sends with the season's text."""
    season = fetch_season(season_id)
    return printed_png(
        "season",
        "season_pdf",
        f"{slug(season.name) or 'season'}.png",
        **poster_params(season, print_language()),
    )
