"""Issue 41, "page what grows": a player's head-to-head and partners are shown a page of
players at a time (``?rivals=N``, ``?partners=N``), so that a player's page costs the same
whoever they have played with; every other player is on one page of the list, once."""

from __future__ import annotations

import pytest

from history_helpers import import_docs, query, simulated_games
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
