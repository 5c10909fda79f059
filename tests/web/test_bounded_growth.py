"""Issue 27, item 7: what grows is bounded, and pages stay pages.

A game holds at most DEAL_LIMIT deal rows (refused in one line at entry and at import); an
import at most GAMES_PER_FILE games a file and GAMES_PER_GROUP a group, stored BATCH games to a
transaction; history, a night and the players list a page at a time by cursor; exports stream
game by game, at most EXPORTS_AT_ONCE at once."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest

from scorekeeper import cli
from scorekeeper.engine import read_game
from scorekeeper.engine.errors import InvalidResult
from scorekeeper.engine.progression import DEAL_LIMIT
from scorekeeper.store import storage, transfer
from scorekeeper.store.db import connect
from scorekeeper.web.keeping import inflight
from scorekeeper.web.access.database import get_db
from scorekeeper.web.pages import history, players

from history_helpers import import_docs, simulated_games
from web_helpers import soup

MISDEAL = {"king": 0, "thrown_in": {"reason": "misdeal", "by": 1}}


def redeals(count: int) -> dict:
    return {
        "format": "trex-game/1",
        "players": ["Aya", "Bilal", "Carla", "Dana"],
        "first_king": 0,
        "deals": [dict(MISDEAL) for _ in range(count)],
    }


# -- a game's deals ---------------------------------------------------------------------------
def test_item7__a_game_of_more_deal_rows_than_the_limit_is_refused_in_one_line():
    assert DEAL_LIMIT == 200
    assert len(read_game(redeals(DEAL_LIMIT)).deals) == DEAL_LIMIT
    with pytest.raises(InvalidResult) as refused:
        read_game(redeals(100_000))  # refused before a deal is read
    [problem] = refused.value.problems
    assert problem.code == "too_many_deals" and problem.params == {"limit": 200}


def test_item7__a_game_stored_with_more_rows_before_the_limit_is_still_read():
    """A stored game is read leniently: one stored before the bound keeps its deals, the rows
    past it listed as no longer passing, and takes no new deal."""
    game = read_game(redeals(DEAL_LIMIT + 2), strict=False)
    assert len(game.deals) == DEAL_LIMIT + 2
    assert [(p.code, p.deal) for p in game.no_longer_passes] == [
        ("too_many_deals", DEAL_LIMIT + 1),
        ("too_many_deals", DEAL_LIMIT + 2),
    ]
    assert [p.code for p in game.progress().check(read_game(redeals(1)).deals[0])] == [
        "too_many_deals"
    ]


def test_item7__the_import_command_refuses_such_a_game_in_one_line(tmp_path, capsys):
    path = tmp_path / "long.json"
    path.write_text(json.dumps(redeals(DEAL_LIMIT + 1)))
    status = cli.main(["import", str(path), "--db", str(tmp_path / "x.sqlite3")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err[0] == "A game holds at most 200 deals, redeals included."
    assert err[1:] == ["Nothing was imported."]


def test_item7__the_deal_past_the_limit_is_refused_at_the_table(app, client, table):
    game_id = table.new_game(first_king=0)
    with app.app_context():
        db = get_db()
        for number in range(1, DEAL_LIMIT + 1):
            storage.add_deal(db, game_id, dict(MISDEAL), token=f"t{number}", number=number)
    page = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    fields = {i["name"]: i.get("value", "") for i in page.select("input[type=hidden]")}
    response = client.post(
        f"/games/{game_id}/thrown-in",
        data={**fields, "reason": "misdeal", "by": "1", "step": "save"},
    )
    assert response.status_code == 400
    assert "at most 200 deals, redeals included" in soup(response).get_text(" ", strip=True)
    with app.app_context():
        assert len(storage.load_game(get_db(), game_id).game.deals) == DEAL_LIMIT


# -- imports ----------------------------------------------------------------------------------
def test_item7__a_file_of_more_games_than_the_bound_is_refused_in_one_line(app, monkeypatch):
    monkeypatch.setattr(transfer, "GAMES_PER_FILE", 3)
    docs = list(simulated_games(4, seed=5))
    with pytest.raises(transfer.ImportRefused) as refused:
        import_docs(app, docs)
    [problem] = refused.value.problems
    assert problem.code == "too_many_games" and problem.params == {"limit": 3, "count": 4}
    assert import_docs(app, docs[:3])  # at the bound: imported


def test_item7__a_group_past_its_bound_refuses_the_import_and_stores_nothing(app, monkeypatch):
    monkeypatch.setattr(transfer, "GAMES_PER_GROUP", 5)
    docs = list(simulated_games(7, seed=6))
    assert len(import_docs(app, docs[:4])) == 4
    with pytest.raises(transfer.ImportRefused) as refused:
        import_docs(app, docs[4:])
    [problem] = refused.value.problems
    assert problem.code == "group_full"
    assert problem.params == {"limit": 5, "stored": 4, "count": 3}
    db = connect(app.config["DATABASE"])
    try:
        assert next(db.query("select count(*) as n from games"))["n"] == 4
    finally:
        db.close()


def games_per_transaction(app, monkeypatch, docs) -> list[int]:
    """Import *docs*; how many games each transaction of the import stored."""
    db = connect(app.config["DATABASE"])
    sizes: list[int] = []
    stored = [0]
    real_atomic, real_store = db.atomic, transfer._store

    @contextmanager
    def counted():
        before = stored[0]
        with real_atomic():
            yield db
        sizes.append(stored[0] - before)

    def store(db_, game):
        stored[0] += 1
        return real_store(db_, game)

    monkeypatch.setattr(db, "atomic", counted)
    monkeypatch.setattr(transfer, "_store", store)
    try:
        result = transfer.import_text(db, json.dumps({"format": "trex-games/1", "games": docs}))
    finally:
        db.close()
    assert len(result.ids) == len(docs)
    return [size for size in sizes if size]


def test_item7__an_import_is_stored_in_short_transactions_of_a_batch_each(app, monkeypatch):
    """A table's save waits for one batch of the import, never for the whole file."""
    monkeypatch.setattr(transfer, "BATCH", 2)
    monkeypatch.setattr(transfer, "BATCH_SECONDS", 60)
    assert games_per_transaction(app, monkeypatch, list(simulated_games(5, seed=7))) == [2, 2, 1]


def test_item7__an_import_batch_ends_once_it_has_taken_its_time(app, monkeypatch):
    monkeypatch.setattr(transfer, "BATCH_SECONDS", 0)  # past its time after each game
    assert games_per_transaction(app, monkeypatch, list(simulated_games(3, seed=8))) == [1, 1, 1]


# -- lists a page at a time ---------------------------------------------------------------------
def walk(client, url: str, link: str, selector: str) -> tuple[list[str], int]:
    seen, pages = [], 0
    while url:
        page = soup(client.get(url))
        seen += [a["href"] for a in page.select(selector)]
        found = page.find("a", string=link)
        url = found["href"] if found else None
        pages += 1
    return seen, pages


def test_item7__history_pages_by_games_none_lost_none_twice_both_ways(app, client, monkeypatch):
    monkeypatch.setattr(history, "GAMES_PER_PAGE", 3)
    ids = import_docs(app, list(simulated_games(10, seed=8, per_night=4)))
    older, pages = walk(client, "/history/", "Older nights", "section.night li a")
    assert pages == 4  # 3 + 3 + 3 + 1, a night of four split over two pages
    assert sorted(older) == sorted(f"/history/games/{i}" for i in ids)
    assert len(set(older)) == len(older)
    last = soup(client.get("/history/"))
    while (link := last.find("a", string="Older nights")) is not None:
        last = soup(client.get(link["href"]))
    url = last.find("a", string="Newer nights")["href"]
    newer, _ = walk(client, url, "Newer nights", "section.night li a")
    assert sorted(newer) == sorted(
        set(older) - {a["href"] for a in last.select("section.night li a")}
    )


def test_item7__a_bad_history_cursor_is_404(client):
    assert client.get("/history/?after=yesterday").status_code == 404
    assert client.get("/history/?after=2026-11-20&game=x").status_code == 404
    assert client.get("/history/?after=2026-11-20&game=0").status_code == 404
    assert client.get("/history/?after=2026-11-20").status_code == 200


def test_item7__a_night_lists_its_games_a_page_at_a_time(app, client, monkeypatch):
    monkeypatch.setattr(history, "GAMES_PER_PAGE", 3)
    ids = import_docs(app, list(simulated_games(7, seed=9, per_night=7)))
    page = soup(client.get("/history/"))
    night = page.select_one("section.night h2 a")["href"]
    first = soup(client.get(night))
    assert "7 games" in first.get_text(" ", strip=True)
    seen, pages = walk(client, night, "Older games", "section.card h2 a, ul.earlier li a")
    assert pages == 3
    assert sorted(int(re.search(r"(\d+)$", h).group(1)) for h in seen) == sorted(ids)
    assert client.get(night + "?after=abc").status_code == 404


def test_item7__the_players_page_a_page_at_a_time(app, client, monkeypatch):
    monkeypatch.setattr(players, "PLAYERS_PER_PAGE", 3)
    import_docs(app, list(simulated_games(6, seed=10)))
    with app.app_context():
        everyone = {f"/players/{r['id']}" for r in get_db().query("select id from players")}
    seen, pages = walk(client, "/players/", "Next players", "ul.list li a")
    assert sorted(seen) == sorted(everyone) and pages == -(-len(everyone) // 3)
    assert client.get("/players/?page=0").status_code == 404
    assert client.get(f"/players/?page={pages + 1}").status_code == 404
    second = soup(client.get("/players/?page=2"))
    assert second.find("a", string="Previous players")["href"] == "/players/"


# -- exports ------------------------------------------------------------------------------------
def test_item7__the_export_of_every_game_streams_game_by_game(app, client, monkeypatch):
    monkeypatch.setattr(transfer, "ID_BATCH", 2)  # the ids read a few at a time
    ids = import_docs(app, list(simulated_games(5, seed=11, per_night=5)))
    response = client.get("/history/export.json")
    assert response.status_code == 200 and response.is_streamed
    document = json.loads(response.get_data(as_text=True))
    assert len(document["games"]) == len(ids) == 5
    night = document["games"][0]["played_on"]
    response = client.get(f"/history/nights/{night}/export.json")
    assert response.is_streamed and len(json.loads(response.data)["games"]) == 5


def test_item7__past_the_exports_at_once_the_answer_is_503_with_retry_after(
    app, client, monkeypatch
):
    monkeypatch.setattr(inflight, "EXPORTS", inflight.InFlight(2, inflight.EXPORTS_BUSY))
    import_docs(app, list(simulated_games(2, seed=12)))
    with inflight.EXPORTS.holding(), inflight.EXPORTS.holding():  # two streams being read
        busy = client.get("/history/export.json")
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) >= 1
        assert "Other exports" in soup(busy).get_text(" ", strip=True)
    response = client.get("/history/export.json")
    assert response.status_code == 200 and len(json.loads(response.data)["games"]) == 2
    assert inflight.EXPORTS._count == 0  # the place given back once the body was read
