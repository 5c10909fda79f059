"""Who holds the 7♥, said again before the first deal: a club night's table is seated with
player 1 first and New game can be mistapped, so the game page lets the phone that keeps score
name the first King until a deal is recorded (RULES.md: the holder of the 7♥ is the first King)."""

from __future__ import annotations

import pytest

from scorekeeper.store import storage
from scorekeeper.store.db import connect
from scorekeeper.store.refused import Refused
from scorekeeper.engine import InvalidResult

from web_helpers import PLAYERS, soup

DIAMONDS_BY_CARLA = {"king": 2, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}


def test_first_king__the_phone_that_keeps_score_names_the_7h_holder_before_the_first_deal(
    app, client, table
):
    game = table.new_game()
    page = soup(client.get(f"/games/{game}"))
    assert "Aya’s kingdom" in page.select_one("#next h2").get_text()
    buttons = page.select("details.first-king button[name=king]")
    assert [b["value"] for b in buttons] == ["1", "2", "3"]  # everyone but the King shown
    response = client.post(f"/games/{game}/first-king", data={"king": "2"})
    assert response.status_code == 303
    page = soup(client.get(f"/games/{game}"))
    assert "Carla holds the 7♥: the first King." in page.get_text()
    assert "Carla’s kingdom" in page.select_one("#next h2").get_text()
    table.enter(game, DIAMONDS_BY_CARLA)  # the engine takes Carla as the King of deal 1
    after = soup(client.get(f"/games/{game}"))
    assert after.select_one("details.first-king") is None  # a deal is recorded: no more
    assert client.post(f"/games/{game}/first-king", data={"king": "0"}).status_code == 303
    assert (
        "The first King can be changed only before the first deal."
        in soup(client.get(f"/games/{game}")).get_text()
    )
    db = connect(app.config["DATABASE"])
    try:
        assert storage.load_game(db, game).game.first_king == 2
    finally:
        db.close()


def test_first_king__a_watcher_cannot_and_a_bad_seat_is_refused(app, client, table):
    game = table.new_game()
    watcher = app.test_client()
    assert soup(watcher.get(f"/games/{game}")).select_one("details.first-king") is None
    assert watcher.post(f"/games/{game}/first-king", data={"king": "1"}).status_code == 403
    for bad in ("4", "²", "-1", "", "9" * 40):
        assert client.post(f"/games/{game}/first-king", data={"king": bad}).status_code == 400
    db = connect(app.config["DATABASE"])
    try:
        assert storage.load_game(db, game).game.first_king == 0
    finally:
        db.close()


def test_first_king__in_arabic(client, table):
    game = table.new_game()
    client.set_cookie("lang", "ar")
    summary = soup(client.get(f"/games/{game}")).select_one("details.first-king summary")
    assert summary.bdi.get_text() == PLAYERS[0] and "7♥" in summary.get_text()


def test_set_first_king__the_store_refuses_after_a_deal_and_the_engine_checks_the_seat(app, table):
    game = table.new_game()
    db = connect(app.config["DATABASE"])
    try:
        with pytest.raises(InvalidResult):
            storage.set_first_king(db, game, 7)
        storage.set_first_king(db, game, 3)
        assert storage.load_game(db, game).game.first_king == 3
        with pytest.raises(Refused):
            storage.set_first_king(db, game + 100, 1)
    finally:
        db.close()
