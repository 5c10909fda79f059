"""The Advise page: only the phone that keeps score opens it; the picker is a form of 52
checkboxes; the answer is a page; a wrong hand is said and kept; nothing is written."""

from __future__ import annotations

import pytest

from scorekeeper.engine.advisor import parse_hand
from scorekeeper.web import create_app

from gamebuilder import standard_deal, standard_game
from history_helpers import query
from i18n_helpers import english_left
from web_helpers import PLAYERS, Table, soup

HAND = "KH 2H 3H 4H 5H 6H 7H 3S 4S 5S 3D 4D 3C".split()


@pytest.fixture
def app(tmp_path):
    yield create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorekeeper.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "WTF_CSRF_ENABLED": False,
            "ADVISOR_DEALS": 12,
        }
    )


def database_dump(app) -> list[str]:
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        return list(db.conn.iterdump())
    finally:
        db.close()


def test_the_game_page_links_advise_for_the_phone_that_keeps_score_only(app, client, table):
    game = table.new_game()
    assert soup(client.get(f"/games/{game}")).select_one(f'a[href="/games/{game}/advise"]')
    watcher = app.test_client()
    assert not soup(watcher.get(f"/games/{game}")).select_one('a[href$="/advise"]')
    assert watcher.get(f"/games/{game}/advise").status_code == 403
    assert watcher.post(f"/games/{game}/advise", data={"card": HAND}).status_code == 403


def test_the_picker__four_suits_of_thirteen_checkboxes_and_a_count(client, table):
    game = table.new_game()
    response = client.get(f"/games/{game}/advise")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    page = soup(response)
    suits = page.select("#picker .suit")
    assert len(suits) == 4
    assert [len(s.select("input[type=checkbox][name=card]")) for s in suits] == [13] * 4
    values = {i["value"] for i in page.select("input[name=card]")}
    assert len(values) == 52 and parse_hand(sorted(values)[:13])
    assert page.select_one("#picked").get_text() == "0"
    assert page.select_one("#advice") is None


def test_the_answer_is_a_page__every_open_choice_ranked_best_first(app, client, table):
    game = table.new_game()
    before = database_dump(app)
    response = client.post(f"/games/{game}/advise", data={"card": HAND})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    page = soup(response)
    rows = page.select("#advice .choices > li")
    assert len(rows) == 5
    assert "best" in rows[0]["class"]
    assert rows[0].select_one(".name").get_text(" ", strip=True).startswith("King of Hearts")
    assert "You take the K♥ in 0% of deals." in rows[0].get_text(" ", strip=True)
    # the hand stays ticked, to change a card and ask again
    assert sorted(i["value"] for i in page.select("input[name=card][checked]")) == sorted(HAND)
    assert page.select_one("#picked").get_text() == "13"
    assert database_dump(app) == before  # nothing written


def test_only_the_open_contracts_of_the_kingdom(client, table):
    game = table.new_game()
    table.enter(game, standard_deal(0, "queens"))
    table.enter(game, standard_deal(0, "trex"))
    page = soup(client.post(f"/games/{game}/advise", data={"card": HAND}))
    names = [r.select_one(".name b").get_text() for r in page.select("#advice .choices > li")]
    assert sorted(names) == ["Collections", "Diamonds", "King of Hearts"]


def test_combination__the_combined_deals_allowed(client, table):
    game = table.new_game(preset="custom", combining="combination", doubling="y")
    page = soup(client.post(f"/games/{game}/advise", data={"card": HAND}))
    assert len(page.select("#advice .choices > li")) == 16  # 15 groups of negatives, and Trex


@pytest.mark.parametrize(
    "cards, message",
    [
        (HAND[:12], "A hand has 13 cards, not 12."),
        (HAND + ["AS"], "A hand has 13 cards, not 14."),
        (HAND[:12] + ["ZZ"], "'ZZ' is not a card"),
        ([], "A hand has 13 cards, not 0."),
    ],
)
def test_a_hand_that_cannot_be_is_said_and_the_cards_kept(client, table, cards, message):
    game = table.new_game()
    response = client.post(f"/games/{game}/advise", data={"card": cards})
    assert response.status_code == 400
    page = soup(response)
    assert page.select_one("#picker .error").get_text().startswith(message)
    kept = sorted(i["value"] for i in page.select("input[name=card][checked]"))
    assert kept == sorted(c for c in cards if c != "ZZ")
    assert page.select_one("#advice") is None


def test_in_arabic__the_answer_and_a_refused_hand(client, table):
    game = table.new_game(preset="partnership")
    client.set_cookie("lang", "ar")
    page = soup(client.post(f"/games/{game}/advise", data={"card": HAND[:5]}))
    assert page.select_one("#picker .error").get_text() == "يجب أن تكون الأوراق 13، لا 5."
    assert english_left(page, also_kept=("Test", "night")) == []
    page = soup(client.post(f"/games/{game}/advise", data={"card": HAND}))
    assert "شيخ الكبة" in page.select_one("#advice h2").get_text()
    assert english_left(page, also_kept=("Test", "night")) == []


def test_after_the_last_deal_there_is_nothing_to_advise(client, table):
    game = table.new_game(PLAYERS)
    for deal in standard_game()["deals"]:
        table.enter(game, deal)
    response = client.get(f"/games/{game}/advise")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{game}")
    assert "game is over" in soup(client.get(f"/games/{game}")).get_text()


def test_the_form_needs_its_token_when_csrf_is_on(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "ADVISOR_DEALS": 4,
        }
    )
    seed = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    client = seed.test_client()
    game = Table(client).new_game()
    phone = app.test_client()
    phone.set_cookie("session", client.get_cookie("session").value)
    assert phone.post(f"/games/{game}/advise", data={"card": HAND}).status_code == 400
    page = soup(phone.get(f"/games/{game}/advise"))
    token = page.select_one("input[name=csrf_token]")["value"]
    answer = phone.post(f"/games/{game}/advise", data={"card": HAND, "csrf_token": token})
    assert answer.status_code == 200 and soup(answer).select_one("#advice")
    assert query(seed, "select count(*) as n from deals")[0]["n"] == 0
