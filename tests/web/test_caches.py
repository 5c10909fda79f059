"""The app's caches: one mechanism (``store.kept.Kept``) and, for each, the key that says when
what is kept must be made again. A cache that served something stale would show a phone an old
scoresheet; each test changes what a kept thing depends on and checks it is made again."""

from __future__ import annotations

import threading

import pytest

from scorekeeper.store.db import connect
from scorekeeper.store.kept import Kept
from scorekeeper.web.keeping import fragments

from history_helpers import import_docs, simulated_games
from web_helpers import PLAYERS, soup

DIAMONDS = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}


# -- the mechanism -------------------------------------------------------------------------
def test_kept__the_least_recently_used_goes_first():
    kept: Kept[str] = Kept(2)
    kept.put("a", "A")
    kept.put("b", "B")
    assert kept.get("a") == "A"  # now b is the oldest
    kept.put("c", "C")
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == ("A", None, "C", 2)


def test_kept__what_fails_to_be_made_is_not_kept():
    kept: Kept[str] = Kept(4)

    def broken() -> str:
        raise ValueError("no")

    with pytest.raises(ValueError):
        kept.get_or_make("x", broken)
    assert len(kept) == 0 and kept.get_or_make("x", lambda: "made") == "made"


def test_kept__many_threads_keep_it_within_its_size():
    kept: Kept[int] = Kept(8)

    def work(base: int) -> None:
        for i in range(200):
            kept.get_or_make((base, i % 13), lambda: i)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(kept) == 8


# -- the scoresheet ------------------------------------------------------------------------
def grid_text(client, game_id: int, **headers: str) -> str:
    page = soup(client.get(f"/games/{game_id}", headers=headers))
    return page.select_one("table.sheet").get_text(" ", strip=True)


def test_grid__a_saved_deal_shows_at_once(app, client, table):
    fragments.clear()
    game_id = table.new_game()
    before = grid_text(client, game_id)
    table.enter(game_id, DIAMONDS)
    after = grid_text(client, game_id)
    assert after != before and "\u221240" in after  # Aya's four diamonds


def test_grid__kept_per_way_of_reading(app, client, table):
    fragments.clear()
    game_id = table.new_game()
    table.enter(game_id, DIAMONDS)
    english = grid_text(client, game_id)
    assert grid_text(client, game_id) == english and len(fragments._kept) == 1
    client.set_cookie("digits", "arabic")
    arabic_digits = grid_text(client, game_id)
    assert "\u2212\u0664\u0660" in arabic_digits and len(fragments._kept) == 2
    client.delete_cookie("digits")
    assert grid_text(client, game_id) == english


def test_grid__an_undone_deal_leaves_the_grid_at_once(app, client, table):
    fragments.clear()
    game_id = table.new_game()
    empty = grid_text(client, game_id)
    table.enter(game_id, DIAMONDS)
    assert table.undo(game_id, 1).status_code == 303
    assert grid_text(client, game_id) == empty


# -- the leaderboard -----------------------------------------------------------------------
def board_names(client) -> list[str]:
    page = soup(client.get("/leaderboard"))
    return [b.get_text(strip=True) for b in page.select("table bdi")]


def test_leaderboard__a_change_by_another_connection_shows_at_once(app, client):
    fragments.clear()
    import_docs(app, simulated_games(3, seed=5, pool=PLAYERS))
    before = board_names(client)
    assert "Aya" in before
    db = connect(app.config["DATABASE"])  # another process or connection renames a player
    try:
        with db.atomic():
            db.execute("update players set name = 'Ayah', name_key = 'ayah' where name = 'Aya'")
    finally:
        db.close()
    after = board_names(client)
    assert "Ayah" in after and "Aya" not in after


def test_leaderboard__kept_while_nothing_changes(app, client):
    fragments.clear()
    import_docs(app, simulated_games(3, seed=5, pool=PLAYERS))
    first = client.get("/leaderboard").data
    kept = len(fragments._kept)
    assert client.get("/leaderboard").data == first and len(fragments._kept) == kept
