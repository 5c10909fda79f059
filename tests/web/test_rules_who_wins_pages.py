"""RULES.md "Who wins" on the pages and the printed sheet: a reversed game's lowest total wins,
with the winner's star, the game-over line, the standings' first place, the past games' line,
the sheet's standings and the leaderboard's wins."""

from __future__ import annotations

from scorekeeper.engine import read_game
from scorekeeper.printing import scoresheet_html

from history_helpers import import_docs
from test_rules_who_wins import reversed_game
from web_helpers import soup


def test_who_wins_reverse_scores_on_the_game_page(app, client):
    [game_id] = import_docs(app, [reversed_game()])
    page = soup(client.get(f"/games/{game_id}"))
    sheet = page.select_one("table.sheet")
    names = [b.get_text() for b in sheet.select("thead tr:first-child th bdi")]
    cells = sheet.select("thead tr.totals td")
    winners = [n for n, td in zip(names, cells) if "win" in (td.get("class") or [])]
    assert winners == ["Aya"]  # -110, the lowest total
    assert "Winner: Aya" in page.get_text(" ", strip=True)
    places = {
        n: td.select_one("small.at").get_text(" ", strip=True).split()[0]
        for n, td in zip(names, cells)
    }
    assert places == {"Aya": "1st", "Bilal": "3rd", "Carla": "4th", "Dana": "2nd"}


def test_who_wins_reverse_scores_in_past_games_and_the_leaderboard(app, client):
    import_docs(app, [reversed_game()])
    history = soup(client.get("/history/")).get_text(" ", strip=True)
    assert "won by Aya" in history
    board = soup(client.get("/leaderboard"))
    wins = {
        tr.select_one("bdi").get_text(): tr.select("td.num")[1].get_text(" ").split()[0]
        for tr in board.select("table tbody tr")
    }
    assert wins["Aya"] == "1" and wins["Carla"] == "0"


def test_who_wins_reverse_scores_on_the_printed_sheet():
    html = soup_of(scoresheet_html(read_game(reversed_game())))
    rows = html.select("table.standings tr")
    standings = [
        (tr.select_one("td.place").get_text(), tr.select_one("td.who").get_text()) for tr in rows
    ]
    assert standings == [("1.", "Aya"), ("2.", "Dana"), ("3.", "Bilal"), ("4.", "Carla")]
    assert [
        tr.select_one("td.who").get_text() for tr in rows if "winner" in (tr.get("class") or [])
    ] == ["Aya"]
    assert html.select_one("p.winner-line").get_text(" ", strip=True) == "Winner: Aya"


def soup_of(text: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(text, "html.parser")
