"""What the pages print, answered by one module (``web/keeping/printouts.py``, issue 42): a club
night's, a tournament's and a season's printed page are asked for in English or Arabic by the
one check, a file name is made of a title in one way, and a game's sheet as a PNG is the same
image at its own address and at a shared result's secret one."""

from __future__ import annotations

import pytest

import test_tournaments
import test_web_clubnights
from scorekeeper.store import seasons
from scorekeeper.store.db import connect
from scorekeeper.web.keeping.printouts import sheet_name, slug

from played import GAME
from web_helpers import Table

REFUSED = "These sheets are printed in English or Arabic."


@pytest.fixture(autouse=True)
def prints_in_threads(app):
    app.config["PRINT_IN_PROCESS"] = False


def test_issue42_1__every_printed_page_refuses_another_language_with_the_reason(app, client):
    club = test_web_clubnights.start(client)
    tournament = test_tournaments.start(client)
    db = connect(app.config["DATABASE"])
    season = seasons.create(db, "Autumn", "2026-01-01", "2026-12-31")
    db.close()
    printed = (
        f"/clubs/{club}/rounds/1/seating.pdf",
        f"/clubs/{club}/standings.pdf",
        f"/tournaments/{tournament}/bracket.pdf",
        f"/seasons/{season}/poster.pdf",
        f"/seasons/{season}/poster.png",
    )
    for url in printed:
        refused = client.get(f"{url}?lang=fr")
        assert refused.status_code == 404, url
        assert REFUSED in refused.get_data(as_text=True), url
    answer = client.get(f"{printed[1]}?lang=ar")  # asked for: printed in it
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")


def test_issue42_1__a_file_name_is_the_titles_letters_and_digits_between_dashes():
    assert slug("Le café: Aya & Bilal!") == "le-caf-aya-bilal"
    assert slug("ليلى") == ""
    long = slug("Night " * 20)
    assert len(long) <= 40 and not long.endswith("-") and long.startswith("night-night")

    class Stored:
        id, played_on, title = 7, "2026-11-20", "Friday's game"

    assert sheet_name(Stored) == "trex-2026-11-20-friday-s-game"
    Stored.played_on, Stored.title = None, "ليلى"
    assert sheet_name(Stored) == "trex-game-7"


def test_issue42_1__a_shared_results_image_is_the_games_own_sheet_png(client):
    table = Table(client)
    game_id = table.new_game(["Aya", "Bilal", "Carla", "Dana"])
    table.play(game_id, GAME[:3])
    own = client.get(f"/games/{game_id}/sheet.png")
    shared = client.get(f"/r/games/{game_id}/any-key/sheet.png")  # the key is the guard's
    assert own.status_code == shared.status_code == 200 and own.mimetype == "image/png"
    assert own.data == shared.data and own.headers["ETag"] == shared.headers["ETag"]
    again = client.get(
        f"/r/games/{game_id}/any-key/sheet.png", headers={"If-None-Match": own.headers["ETag"]}
    )
    assert again.status_code == 304 and again.headers["Cache-Control"] == "private, no-cache"
