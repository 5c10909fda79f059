"""Past nights: grouped by date, searched by player, paged; each game's read-only record."""

from __future__ import annotations

import copy
import json

import pytest

from scorekeeper.engine import read_game
from scorekeeper.web.pages import history
from scorekeeper.store.db import connect
from scorekeeper.store.backfill import up_to_date
from scorekeeper.store.schema import migrations

from gamebuilder import standard_game
from history_helpers import import_docs, keep_score, number, query, simulated_games
from web_helpers import sheet_totals, soup

POOL = ("Aya", "Bilal", "Carla", "Dana", "Elias", "Farah")


def nights_of(page) -> list[tuple[str, list[str]]]:
    """Each night's heading and the one line under each of its games."""
    return [
        (
            section.h2.get_text(strip=True),
            [
                " ".join(li.select_one(".oneline").get_text().split())  # names are elements
                for li in section.select("li")
            ],
        )
        for section in page.select("section.night")
    ]


def test_history__nights_newest_first_each_game_with_players_winner_and_rules(app, client):
    docs = list(simulated_games(7, seed=31, per_night=3, pool=POOL))
    import_docs(app, docs)
    page = soup(client.get("/history/"))
    nights = nights_of(page)
    assert [n for n, _ in nights] == ["Fri 20 Nov 2026", "Thu 19 Nov 2026", "Wed 18 Nov 2026"]
    assert [len(lines) for _, lines in nights] == [3, 3, 1]
    lines = [line for _, games in nights for line in games]
    for doc, line in zip(docs, [*reversed(lines[:3]), *reversed(lines[3:6]), lines[6]]):
        game = read_game(doc)
        scored = game.score()
        winners = " and ".join(game.players[s] for s in scored.winners)
        summary = game.rules.summary()
        assert line == (
            f"{', '.join(game.players)} · won by {winners} · {summary[:1].upper() + summary[1:]}"
        )


def test_history__a_game_in_progress_says_so_and_opens_the_table(app, client):
    doc = standard_game()
    doc["deals"] = doc["deals"][:7]
    [game_id] = import_docs(app, [doc])
    item = soup(client.get("/history/")).select_one("section.night li")
    assert "in progress, 7 deals" in item.get_text()
    assert item.a["href"] == f"/games/{game_id}"


def test_history__search_by_player_name_any_case_and_part(app, client):
    docs = list(simulated_games(12, seed=32, per_night=3, pool=POOL))
    import_docs(app, docs)
    page = soup(client.get("/history/?player=  eLi "))
    lines = [line for _, games in nights_of(page) for line in games]
    assert len(lines) == sum(1 for d in docs if "Elias" in d["players"])
    assert all("Elias" in line.split(" · ")[0] for line in lines)
    assert "Players matching" in page.get_text() and page.find("a", string="Elias")
    nobody = soup(client.get("/history/?player=Zed"))
    assert "No player’s name contains" in nobody.get_text() and not nights_of(nobody)


def test_history__older_nights_a_page_at_a_time_none_lost_none_twice(app, client, monkeypatch):
    monkeypatch.setattr(history, "NIGHTS_PER_PAGE", 4)
    docs = list(simulated_games(20, seed=33, per_night=2, pool=POOL))
    ids = import_docs(app, docs)
    seen, url, pages = [], "/history/", 0
    while url:
        page = soup(client.get(url))
        seen += [a["href"] for a in page.select("section.night li a")]
        older = page.find("a", string="Older nights")
        url = older["href"] if older else None
        pages += 1
    assert pages == 3
    assert sorted(seen) == sorted(f"/history/games/{i}" for i in ids)
    assert client.get("/history/?before=yesterday").status_code == 404


def test_night_page__standings_of_each_game_and_its_export(app, client):
    docs = list(simulated_games(3, seed=34, per_night=3, pool=POOL))
    import_docs(app, docs)
    page = soup(client.get("/history/nights/2026-11-20"))
    tables = page.select("table.standings")
    assert len(tables) == 3
    for doc, table in zip(reversed(docs), tables):  # the latest game first
        totals = dict(zip(doc["players"], read_game(doc).score().totals))
        shown = {
            tr.a.get_text(strip=True): number(tr.select_one("td.num").get_text())
            for tr in table.select("tbody tr")
        }
        assert shown == totals
        # in seat order, each with its place, as the sheet keeps them
        assert [tr.a.get_text(strip=True) for tr in table.select("tbody tr")] == doc["players"]
        places = [tr.select_one("td.rank").get_text() for tr in table.select("tbody tr")]
        # the engine's places (RULES.md "Who wins": partners share their team's place)
        assert places == [
            ("1st", "2nd", "3rd", "4th")[p - 1] for p in read_game(doc).score().places
        ]
    assert page.find("a", string="Download this night’s games")["href"].startswith(
        "/history/nights/2026-11-20/export.json"
    )
    assert client.get("/history/nights/2019-01-01").status_code == 404


# -- a game's record -----------------------------------------------------------------------
@pytest.fixture
def finished(app):
    doc = next(simulated_games(1, seed=35, pool=POOL))
    [game_id] = import_docs(app, [doc])
    return game_id, doc


def test_game_record__read_only_with_deals_sheet_totals_and_running_totals(client, finished):
    """The record shows the scoresheet (a row per deal with the totals after it, the totals at
    its head), which took the place of the kingdom grid and the table of running totals."""
    game_id, doc = finished
    game = read_game(doc)
    scored = game.score()
    page = soup(client.get(f"/history/games/{game_id}"))
    assert page.select("form[method=post]") == []  # nothing to change without asking
    assert len(page.select("ol.deals > li")) == len(doc["deals"])
    assert len(page.select("#sheet tbody.kingdom")) == 4
    assert sheet_totals(page) == dict(zip(game.players, scored.totals))
    rows = [tr for tr in page.select("#sheet tbody tr") if tr.select("td small.run")]
    scoring = [i for i, record in enumerate(game.deals) if record.thrown_in is None]
    assert [[number(s.get_text()) for s in tr.select("td small.run")] for tr in rows] == [
        list(scored.running[i]) for i in scoring
    ]
    winners = " and ".join(game.players[s] for s in scored.winners)
    assert winners in page.select_one(".winner").get_text()
    assert page.find("a", string="Correct a deal")["href"] == f"/history/games/{game_id}/correct"


def test_game_record__correct_a_deal_keeps_the_history_and_updates_the_statistics(
    app, client, table
):
    doc = standard_game(players=list(POOL[:4]))
    [game_id] = import_docs(app, [doc])
    watching = soup(client.get(f"/history/games/{game_id}/correct"))
    assert "This phone watches this game" in watching.get_text()
    keep_score(client, app, game_id)
    page = soup(client.get(f"/history/games/{game_id}/correct"))
    assert "This phone watches this game" not in page.get_text()
    links = [a["href"] for a in page.select("ul.list a")]
    assert links == [f"/games/{game_id}/deals/{n}/edit" for n in range(1, 21)]
    diamonds = next(i for i, d in enumerate(doc["deals"]) if d["contracts"] == ["diamonds"])
    fixed = copy.deepcopy(doc["deals"][diamonds])
    fixed["diamonds"] = [13, 0, 0, 0]
    assert table.correct(game_id, diamonds + 1, fixed).status_code == 303
    actions = [
        r["action"]
        for r in query(
            app,
            "select action from deal_history where game_id = ? and number = ? order by id",
            [game_id, diamonds + 1],
        )
    ]
    assert actions == ["create", "correct"]
    [aya] = query(
        app,
        "select points from seat_contract_stats where game_id = ? and deal_number = ? and seat = 0",
        [game_id, diamonds + 1],
    )
    assert aya["points"] == -130
    record = soup(client.get(f"/history/games/{game_id}"))
    item = record.select_one(f"#deal-{diamonds + 1}")
    assert "Aya 13" in item.get_text(" ", strip=True)
    [row] = query(app, "select totals_json from games where id = ?", [game_id])
    doc["deals"][diamonds] = fixed
    assert json.loads(row["totals_json"]) == list(read_game(doc).score().totals)


def test_game_record__undo_renumbers_the_facts(app, client, table):
    doc = standard_game(players=list(POOL[:4]))
    doc["deals"] = doc["deals"][:6]
    [game_id] = import_docs(app, [doc])
    keep_score(client, app, game_id)
    assert table.undo(game_id, 6).status_code == 303
    numbers = {
        r["deal_number"]
        for r in query(
            app, "select deal_number from seat_contract_stats where game_id = ?", [game_id]
        )
    }
    assert numbers == set(range(1, 6))


def test_game_record__unknown_game_is_404(client):
    assert client.get("/history/games/404").status_code == 404
    assert client.get("/history/games/404/correct").status_code == 404


def test_game_page__links_to_the_record(app, client, finished):
    game_id, _ = finished
    page = soup(client.get(f"/games/{game_id}"))
    assert page.find("a", href=f"/history/games/{game_id}") is not None


def test_navigation__history_players_and_leaderboard_on_every_page(client, finished):
    for url in ("/", "/history/", f"/history/games/{finished[0]}", "/players/"):
        nav = soup(client.get(url)).select_one("nav.sections")
        assert [a["href"] for a in nav.find_all("a")] == ["/history/", "/players/", "/leaderboard"]


# -- the migration -------------------------------------------------------------------------
def test_migration__facts_for_games_stored_before_it(app, tmp_path):
    """A database from before the statistics gains them, the same as if written since."""
    import_docs(app, list(simulated_games(4, seed=36, pool=POOL)))
    old = connect(tmp_path / "old.sqlite3")
    migrations.apply(old, stop_before="m002_history_stats")
    new = connect(app.config["DATABASE"])
    try:
        for name in ("players", "games", "game_players", "deals", "deal_history"):
            columns = [c.name for c in old.table(name).columns]
            rows = [{c: r[c] for c in columns} for r in new.table(name).rows]
            old.table(name).insert_all(rows)
        up_to_date(old)
        facts = "select * from seat_contract_stats order by game_id, deal_number, seat, contract"
        assert list(old.query(facts)) == list(new.query(facts))
        filters = "select id, night, preset, partnership, fingerprint from games order by id"
        assert list(old.query(filters)) == list(new.query(filters))
    finally:
        old.close()
        new.close()


def test_night_page__a_long_night_lists_its_earlier_games_a_line_each(app, client):
    """A night of many games (a club night of several rounds) shows its latest twelve in full
    and the earlier ones a line each, with the winner: the page stays light."""
    docs = list(simulated_games(30, seed=35, per_night=30, pool=POOL))
    import_docs(app, docs)
    response = client.get("/history/nights/2026-11-20")
    page = soup(response)
    assert len(page.select("table.standings")) == 12
    lines = page.select("ul.earlier li")
    assert len(lines) == 18
    for doc, line in zip(list(reversed(docs))[12:], lines):
        game = read_game(doc).score()
        winners = [doc["players"][seat] for seat in game.winners]
        assert all(name in line.bdi.get_text() for name in winners)
        assert line.a["href"].startswith("/history/games/")
    assert len(response.data) < 25_000  # the 30 games' HTML; each card is about 1 KB


def test_issue41_3__a_players_games_a_page_at_a_time_each_exactly_once(app, client, monkeypatch):
    """A player's list of games (Past nights searched by their name) is paged as the nights
    are: bounded pages, older and back newer, every game of theirs exactly once."""
    monkeypatch.setattr(history, "NIGHTS_PER_PAGE", 3)
    monkeypatch.setattr(history, "GAMES_PER_PAGE", 4)
    docs = list(simulated_games(30, seed=41, per_night=3, pool=POOL))
    ids = import_docs(app, docs)
    theirs = sorted(f"/history/games/{i}" for i, doc in zip(ids, docs) if "Aya" in doc["players"])
    assert len(theirs) > 8  # more than two pages
    pages, url = [], "/history/?player=aya"
    while url:
        page = soup(client.get(url))
        pages.append([a["href"] for a in page.select("section.night li a")])
        older = page.find("a", string="Older nights")
        url = older["href"] if older else None
    assert all(0 < len(p) <= 4 for p in pages) and len(pages) > 2
    seen = [href for p in pages for href in p]
    assert sorted(seen) == theirs and len(set(seen)) == len(seen)
    # and back: from the last page, the newer pages lead to the first again
    page = soup(client.get(older_of(client, "/history/?player=aya", len(pages) - 1)))
    back = []
    while True:
        back.insert(0, [a["href"] for a in page.select("section.night li a")])
        newer = page.find("a", string="Newer nights")
        if not newer:
            break
        page = soup(client.get(newer["href"]))
    assert back == pages


def older_of(client, url: str, steps: int) -> str:
    """The address *steps* pages older than *url*."""
    for _ in range(steps):
        url = soup(client.get(url)).find("a", string="Older nights")["href"]
    return url
