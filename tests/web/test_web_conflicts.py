"""Two phones on one game: nothing is ever overwritten unseen. A late entry or a stale
correction is refused with the game as it stands now and what changed; the same entry sent at
the same moment twice is recorded once."""

from __future__ import annotations

import threading

import pytest

from scorekeeper.store import storage
from scorekeeper.store.db import connect
from scorekeeper.store.refused import Refused

from web_helpers import Table, hidden_fields, keep_score, soup

DIAMONDS = {"diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3", "diamonds_3": "3"}


@pytest.fixture
def phones(app, client, table):
    """Two scorekeepers' phones on one game: the one that started it, and one with its link."""
    game = table.new_game()
    other = app.test_client()
    keep_score(other, app, game)
    return game, table, Table(other)


def count(app, sql, params=()):
    db = connect(app.config["DATABASE"])
    try:
        return db.execute(sql, params).fetchone()[0]
    finally:
        db.close()


def meanwhile_text(response) -> str:
    box = soup(response).find(id="meanwhile")
    assert box is not None, soup(response).get_text(" ", strip=True)[:500]
    return box.get_text(" ", strip=True)


def test_the_second_phone_saving_the_same_deal_sees_what_was_recorded(app, phones):
    game, a, b = phones
    form_a = hidden_fields(a.open_form(game, "diamonds"))
    form_b = hidden_fields(b.open_form(game, "king_of_hearts"))
    assert (
        a.client.post(
            f"/games/{game}/deals/new", data={**form_a, **DIAMONDS, "step": "save"}
        ).status_code
        == 303
    )
    late = b.client.post(
        f"/games/{game}/deals/new", data={**form_b, "kh_taker": "2", "step": "save"}
    )
    assert late.status_code == 409
    assert "Deal 1 has been recorded meanwhile" in soup(late).get_text()
    text = meanwhile_text(late)
    assert "Deal 1: Diamonds" in text and "Aya 4" in text and "Standings now" in text
    assert "−40" in text  # Aya's total, as the engine counts it
    assert count(app, "select count(*) from deals") == 1
    assert soup(late).select_one('input[name="kh_taker"][checked]')["value"] == "2"


def test_a_stale_correction_is_refused_with_what_changed(app, phones):
    game, a, b = phones
    a.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    url = f"/games/{game}/deals/1/edit"
    stale = hidden_fields(soup(b.client.get(url)))
    assert (
        a.correct(
            game, 1, {"king": 0, "contracts": ["diamonds"], "diamonds": [1, 6, 3, 3]}
        ).status_code
        == 303
    )
    before = count(app, "select count(*) from deal_history")
    mine = {"diamonds_0": "13", "diamonds_1": "0", "diamonds_2": "0", "diamonds_3": "0"}
    refused = b.client.post(url, data={**stale, **mine, "step": "save"})
    assert refused.status_code == 409
    assert "Deal 1 has been changed meanwhile" in soup(refused).get_text()
    text = meanwhile_text(refused)
    assert "What this phone read" in text and "Aya 4, Bilal 3" in text
    assert "Recorded now" in text and "Aya 1, Bilal 6" in text
    assert count(app, "select count(*) from deal_history") == before
    assert count(app, "select version from deals where number = 1") == 2
    # seen, and sent again on purpose: it becomes version 3
    again = b.client.post(url, data={**hidden_fields(soup(refused)), **mine, "step": "save"})
    assert again.status_code == 303
    assert count(app, "select version from deals where number = 1") == 3
    assert count(app, "select score_0 from deals where number = 1") == -130


def test_a_correction_of_a_deal_undone_meanwhile_never_lands_on_the_next_one(app, phones):
    game, a, b = phones
    a.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    a.enter(game, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    url = f"/games/{game}/deals/1/edit"
    stale = hidden_fields(soup(b.client.get(url)))
    assert a.undo(game, 1).status_code == 303  # the Trex deal is deal 1 now, version 1 too
    snapshot = count(app, "select group_concat(record_json) from deals")
    for _ in range(2):
        refused = b.client.post(url, data={**stale, **DIAMONDS, "step": "save"})
        assert refused.status_code == 409
        assert "undone meanwhile" in soup(refused).get_text()
        stale = hidden_fields(soup(refused))
    assert count(app, "select group_concat(record_json) from deals") == snapshot


def test_undo_from_two_phones_takes_out_one_deal(app, phones):
    game, a, b = phones
    a.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    a.enter(game, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    url = f"/games/{game}/deals/1/undo"
    form_a, form_b = (hidden_fields(soup(p.client.get(url))) for p in (a, b))
    assert a.client.post(url, data=form_a).status_code == 303
    second = b.client.post(url, data=form_b)
    assert second.status_code == 303
    assert "already been undone" in soup(b.client.get(second.headers["Location"])).get_text()
    assert count(app, "select count(*) from deals") == 1


def race(app, attempts):
    """Run each attempt(db) on its own thread and connection, all released at once."""
    start = threading.Barrier(len(attempts))
    results: list = [None] * len(attempts)

    def run(i, attempt):
        db = connect(app.config["DATABASE"])
        try:
            start.wait()
            results[i] = attempt(db)
        except Exception as exc:  # noqa: BLE001 (the outcome is what is checked)
            results[i] = exc
        finally:
            db.close()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(attempts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


DEAL = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}


def test_the_same_entry_sent_at_the_same_moment_is_recorded_once(app, table):
    game = table.new_game()
    token = "t" * 22
    results = race(
        app, [lambda db: storage.add_deal(db, game, DEAL, token=token, number=1) for _ in range(6)]
    )
    assert results.count(1) == 1
    assert all(isinstance(r, storage.DuplicateToken) for r in results if r != 1), results
    assert count(app, "select count(*) from deals") == 1
    assert count(app, "select count(*) from deal_history") == 1


def test_two_entries_for_the_same_deal_at_the_same_moment__one_is_refused(app, table):
    game = table.new_game()
    results = race(
        app,
        [
            lambda db, i=i: storage.add_deal(db, game, DEAL, token=f"phone{i}" * 4, number=1)
            for i in range(6)
        ],
    )
    assert results.count(1) == 1
    assert all(isinstance(r, storage.Conflict) for r in results if r != 1), results
    assert count(app, "select count(*) from deals") == 1


def test_new_players_at_the_same_moment__each_stored_once(app):
    """Reading a player's id, then writing the game, under concurrency: the write lock is
    taken before the read, so no phone gets "database is locked" and no name is doubled."""
    from scorekeeper.engine import HouseRules

    names = [
        ["Aya", "Bilal", "Carla", "Dana"],
        ["Dana", "Eli", "Fadi", "Aya"],
        ["Gus", "Aya", "Eli", "Hind"],
        ["Bilal", "Hind", "Gus", "Ivo"],
    ] * 2
    results = race(
        app,
        [
            lambda db, n=n: storage.create_game(
                db, title="x", played_on=None, players=n, rules=HouseRules(), first_king=0
            )
            for n in names
        ],
    )
    assert all(isinstance(r, int) for r in results), results
    assert count(app, "select count(*) from players") == 9
    assert count(app, "select count(*) from games") == 8


def test_a_deal_saved_between_the_check_and_the_write_is_caught_by_storage(
    app, phones, monkeypatch
):
    """The page's check of the deal number and the write are apart; storage checks again
    inside its transaction, and the answer is the same: what is recorded now."""
    from scorekeeper.web.pages import deals

    game, a, b = phones
    form_b = hidden_fields(b.open_form(game, "king_of_hearts"))
    a.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    monkeypatch.setattr(deals, "_check_number", lambda stored, form: None)
    late = b.client.post(
        f"/games/{game}/deals/new", data={**form_b, "kh_taker": "2", "step": "save"}
    )
    assert late.status_code == 409
    assert "Deal 1 has been recorded meanwhile (another phone?)" in soup(late).get_text()
    assert "Deal 1: Diamonds" in meanwhile_text(late)
    assert count(app, "select count(*) from deals") == 1


def test_a_conflict_is_a_refusal_with_a_code_and_values_said_in_the_pages_language(
    app, phones, monkeypatch
):
    """Issue 30: the store raises a conflict as a Refused (its msgid and the deal's number), and
    the page says it from the catalog: no pattern matched against English text."""
    from scorekeeper.web.pages import deals

    game, a, b = phones
    form_b = hidden_fields(b.open_form(game, "king_of_hearts"))
    a.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    db = connect(app.config["DATABASE"])
    try:
        with pytest.raises(storage.Conflict) as raised:
            storage.add_deal(
                db,
                game,
                {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 2}},
                token=form_b["token"],
                number=1,
            )
    finally:
        db.close()
    assert isinstance(raised.value, Refused)
    assert raised.value.message == "Deal %(number)s has been recorded meanwhile"
    assert raised.value.values == {"number": 1}
    monkeypatch.setattr(deals, "_check_number", lambda stored, form: None)  # storage's check
    b.client.set_cookie("lang", "ar")
    b.client.set_cookie("digits", "arabic")
    late = b.client.post(
        f"/games/{game}/deals/new", data={**form_b, "kh_taker": "2", "step": "save"}
    )
    assert late.status_code == 409
    assert "سُجّلت اليد ١ في هذه الأثناء" in soup(late).get_text()
