"""Every page in Arabic, with nothing left in English but names and data, and every page in
English still English: the complete translation the Arabic-first tables are promised."""

from __future__ import annotations

import io
import json

import pytest

from gamebuilder import standard_deal
from history_helpers import simulated_games
from i18n_helpers import english_left
from web_helpers import be_admin, soup

#: Pages a table sees, by what they show. ``{game}`` is a game in progress entered through the
#: forms, ``{over}`` a finished imported game, ``{player}`` a player of it.
PAGES = {
    "home": "/",
    "settings": "/settings",
    "new game": "/games/new",
    "game in progress": "/games/{game}",
    "game over": "/games/{over}",
    "entry form": "/games/{game}/deals/new?contracts=collections&king=0",
    "combined entry form": "/games/{complex}/deals/new?contracts=king_of_hearts,diamonds,"
    "queens,collections&king=0",
    "trex form": "/games/{game}/deals/new?contracts=trex&king=0",
    "thrown in": "/games/{game}/thrown-in?king=0",
    "deal": "/games/{game}/deals/1",
    "correction": "/games/{game}/deals/1/edit",
    "undo": "/games/{game}/deals/2/undo",
    "game history": "/games/{game}/history",
    "watch": "/games/{game}/watch",
    "share": "/games/{game}/share",
    "advise": "/games/{game}/advise",
    "history": "/history/",
    "night": "/history/nights/2026-11-20",
    "record": "/history/games/{over}",
    "record correction": "/history/games/{over}/correct",
    "players": "/players/",
    "player": "/players/{player}",
    "rename": "/players/{player}/rename",
    "merge": "/players/{player}/merge",
    "leaderboard": "/leaderboard",
    "import": "/import",
    "not found": "/games/999999",
    "new club night": "/clubs/new",
    "club night": "/clubs/{club}",
    "wall view": "/clubs/{club}/wall",
}


@pytest.fixture
def places(app, table, client):
    game = table.new_game(["سامي", "Nour", "ليلى Sam", "Hala"])
    table.enter(game, standard_deal(0, "diamonds"))
    table.enter(game, standard_deal(0, "queens"))
    complex_game = table.new_game(preset="complex")
    # Imported through the page, as a phone does; the group's admin phone may rename and merge.
    document = json.dumps({"format": "trex-games/1", "games": list(simulated_games(1, seed=3))})
    imported = client.post(
        "/import",
        data={"file": (io.BytesIO(document.encode()), "night.json")},
        content_type="multipart/form-data",
    )
    over = int(imported.headers["Location"].rsplit("/", 1)[1])
    be_admin(client, app)
    client.get(imported.headers["Location"])  # shows (and so clears) the two messages
    player = _first_player(app, over)
    club = client.post(
        "/clubs/new",
        data={
            "title": "Trex",
            "played_on": "2026-11-24",
            "rounds": "2",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join(
                ["سامي", "Nour", "ليلى", "Hala", "Aya", "Bilal", "Carla", "Dana", "Elias"]
            ),
        },
    )
    club = int(club.headers["Location"].rsplit("/", 1)[1])
    return {"game": game, "over": over, "player": player, "complex": complex_game, "club": club}


def _first_player(app, game_id: int) -> int:
    from history_helpers import query

    [row] = query(
        app, "select player_id from game_players where game_id = ? and seat = 0", [game_id]
    )
    return row["player_id"]


def _titles(app) -> tuple[str, ...]:
    """Titles the tables typed (data, not the app's words)."""
    from history_helpers import query

    words: list[str] = []
    for row in query(app, "select title from games"):
        words.extend((row["title"] or "").split())
    return tuple(words)


@pytest.mark.slow
@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_in_arabic__right_to_left_and_nothing_left_in_english(app, client, places, page):
    client.set_cookie("lang", "ar")
    url = PAGES[page].format(**places)
    response = client.get(url)
    assert response.status_code in (200, 404), (url, response.status_code)
    html = soup(response)
    assert (html.html["lang"], html.html["dir"]) == ("ar", "rtl")
    assert english_left(html, also_kept=_titles(app)) == []


@pytest.mark.slow
@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_in_english__left_to_right_and_no_arabic_words_of_the_app(client, places, page):
    client.set_cookie("lang", "en")
    url = PAGES[page].format(**places)
    html = soup(client.get(url))
    assert (html.html["lang"], html.html["dir"]) == ("en", "ltr")
    for bdi in html.select("bdi"):
        bdi.decompose()
    for switch in html.select("[lang=ar]"):
        switch.decompose()
    text = html.get_text(" ")
    assert not any("\u0600" <= ch <= "\u06ff" for ch in text), text[:400]
