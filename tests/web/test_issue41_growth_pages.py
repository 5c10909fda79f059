"""Issue 41, "page what grows": a player's head-to-head and partners are shown a page of
players at a time (``?rivals=N``, ``?partners=N``), so that a player's page costs the same
whoever they have played with; every other player is on one page of the list, once."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from history_helpers import import_docs, query, simulated_games
from scorekeeper.web.pages import players as players_page
from scorekeeper.web.pages import seasons as seasons_page
from scorekeeper.web.pages.players import RIVALS_PER_PAGE
from web_helpers import soup

POOL = tuple(f"Player {n:02d}" for n in range(RIVALS_PER_PAGE + 9))


@pytest.fixture
def many(app):
    docs = list(simulated_games(60, seed=41, per_night=4, pool=POOL))
    for doc in docs:  # Player 00 in every game, so that every other player is a rival
        if "Player 00" not in doc["players"]:
            doc["players"][0] = "Player 00"
    import_docs(app, docs)
    [row] = query(app, "select id from players where name = 'Player 00'")
    return row["id"]


def listed(client, url: str, table: str, pager: str) -> tuple[list[str], str | None]:
    page = soup(client.get(url))
    names = [a.get_text(strip=True) for a in page.select(f"#{table} tbody th a")]
    link = page.select_one(f"#{pager}-pages a[rel=next]")
    return names, None if link is None else link["href"]


def test_issue41_3__a_players_rivals_are_listed_a_page_at_a_time_each_once(app, client, many):
    others = {
        r["player_id"]
        for r in query(
            app,
            "select distinct o.player_id from game_players m join game_players o "
            "on o.game_id = m.game_id and o.seat != m.seat where m.player_id = ? "
            "and m.finished = 1",
            [many],
        )
    }
    assert len(others) > RIVALS_PER_PAGE  # more than a page: the check below can fail
    seen, url, pages = [], f"/players/{many}?from=2000-01-01", 0
    while url:
        names, url = listed(client, url, "head-to-head", "rivals")
        assert len(names) <= RIVALS_PER_PAGE
        seen += names
        pages += 1
        if url:
            assert "from=2000-01-01" in url  # the filters kept
    assert pages == -(-len(others) // RIVALS_PER_PAGE)
    assert len(seen) == len(set(seen)) == len(others)


def test_issue41_3__a_page_of_the_lists_that_is_not_one_answers_404(app, client, many):
    for arg in ("rivals=0", "rivals=99", "rivals=x", "partners=-1", "partners=1e3", "rivals=٢"):
        response = client.get(f"/players/{many}?{arg}")
        assert response.status_code == 404, arg
        assert "There is no such page of players." in response.get_data(as_text=True)
    assert client.get(f"/players/{many}?rivals=2").status_code == 200


def test_issue41_3__the_leaderboard_is_listed_a_page_at_a_time_in_every_order(
    app, client, many, monkeypatch
):
    monkeypatch.setattr(players_page, "BOARD_PER_PAGE", 10)  # three pages of 29 players
    count = query(app, "select count(distinct player_id) as n from game_players where finished = 1")
    assert count[0]["n"] > 1
    for sort in ("wins", "win_rate", "average", "best", "games", "rating"):
        seen, url = [], f"/leaderboard?sort={sort}"
        while url:
            response = client.get(url)
            assert response.status_code == 200, url  # sorted by games it was a 500
            page = soup(response)
            seen += [a.get_text(strip=True) for a in page.select("table.board tbody th > a")]
            link = page.select_one("#board-pages a[rel=next]")
            url = None if link is None else link["href"]
            if url:
                assert f"sort={sort}" in url
        assert len(seen) == len(set(seen)) == count[0]["n"] > 20
    assert client.get("/leaderboard?page=99").status_code == 404


def test_issue41_3__a_seasons_standings_are_listed_a_page_at_a_time(app, client, many, monkeypatch):
    monkeypatch.setattr(seasons_page, "STANDINGS_PER_PAGE", 10)
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn, conn:
        conn.execute(
            "insert into seasons (name, first_night, last_night, created_at) select 'All', "
            "min(night), max(night), '2026-12-05T00:00:00' from games"
        )
    [season] = query(app, "select max(id) as id from seasons")
    places, url = [], f"/seasons/{season['id']}"
    while url:
        page = soup(client.get(url))
        places += [int(td.get_text(strip=True)) for td in page.select(".season-board td.rank")]
        link = page.select_one("#standings-pages a[rel=next]")
        url = None if link is None else link["href"]
    assert places == list(range(1, len(places) + 1)) and len(places) > 20
    assert client.get(f"/seasons/{season['id']}?page=0").status_code == 404
