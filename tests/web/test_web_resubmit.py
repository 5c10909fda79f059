"""Back, reload, a double tap, two phones: nothing is ever recorded twice. And CSRF."""

from __future__ import annotations

import re

import pytest

from scorekeeper.web import create_app

from web_helpers import PLAYERS, hidden_fields, soup

DIAMONDS = {"diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3", "diamonds_3": "3"}


def deal_count(client, game_id):
    page = soup(client.get(f"/games/{game_id}"))
    return int(page.find(id="next").h2.get_text().split()[1]) - 1


def preview_fields(table, game_id):
    response = table.post_entry(game_id, "diamonds", DIAMONDS)
    assert response.status_code == 200
    return {**hidden_fields(soup(response)), "step": "save"}


def test_double_submission__same_token_records_one_deal(table, client):
    game_id = table.new_game()
    fields = preview_fields(table, game_id)
    first = client.post(f"/games/{game_id}/deals/new", data=fields)
    second = client.post(f"/games/{game_id}/deals/new", data=fields)
    assert first.status_code == 303 and first.headers["Location"] == f"/games/{game_id}"
    assert second.status_code == 303
    assert second.headers["Location"] == f"/games/{game_id}/deals/1"
    assert "Already saved" in soup(client.get(second.headers["Location"])).get_text()
    assert deal_count(client, game_id) == 1


def test_back_to_the_preview_and_save_again__records_nothing(table, client):
    game_id = table.new_game()
    fields = preview_fields(table, game_id)
    client.post(f"/games/{game_id}/deals/new", data=fields)
    table.enter(
        game_id,
        {
            "king": 0,
            "contracts": ["queens"],
            "queens": {s: {"taker": 2} for s in ("spades", "hearts", "diamonds", "clubs")},
        },
    )
    again = client.post(f"/games/{game_id}/deals/new", data={**fields, "step": "preview"})
    assert again.status_code == 303
    assert again.headers["Location"] == f"/games/{game_id}/deals/1"
    assert deal_count(client, game_id) == 2


@pytest.mark.parametrize("route", ["deals/new", "thrown-in"])
def test_replayed_posts__after_the_game_moved_on(table, client, route):
    game_id = table.new_game()
    if route == "thrown-in":
        page = soup(client.get(f"/games/{game_id}/thrown-in"))
        fields = {**hidden_fields(page), "reason": "misdeal", "by": "1", "step": "save"}
    else:
        fields = preview_fields(table, game_id)
    assert client.post(f"/games/{game_id}/{route}", data=fields).status_code == 303
    for _ in range(3):
        assert client.post(f"/games/{game_id}/{route}", data=fields).status_code == 303
    assert deal_count(client, game_id) == 1


def test_reload_of_the_form_gives_a_new_token(table):
    game_id = table.new_game()
    first = hidden_fields(table.open_form(game_id, "diamonds"))["token"]
    second = hidden_fields(table.open_form(game_id, "diamonds"))["token"]
    assert first != second and len(first) >= 16


def test_two_phones__the_second_entry_of_the_same_deal_is_held_back(table, client):
    game_id = table.new_game()
    phone_a = hidden_fields(table.open_form(game_id, "diamonds"))
    phone_b = hidden_fields(table.open_form(game_id, "king_of_hearts"))
    saved = client.post(f"/games/{game_id}/deals/new", data={**phone_a, **DIAMONDS, "step": "save"})
    assert saved.status_code == 303
    late = client.post(
        f"/games/{game_id}/deals/new", data={**phone_b, "kh_taker": "1", "step": "save"}
    )
    assert late.status_code == 409
    page = soup(late)
    assert "Deal 1 has been recorded meanwhile" in page.get_text()
    assert page.select_one('input[name="kh_taker"][checked]')["value"] == "1"
    assert deal_count(client, game_id) == 1
    # sent again on purpose, it becomes deal 2
    again = client.post(
        f"/games/{game_id}/deals/new", data={**hidden_fields(page), "kh_taker": "1", "step": "save"}
    )
    assert again.status_code == 303
    assert deal_count(client, game_id) == 2


def test_correction_sent_twice__one_new_version(table, client, app):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    url = f"/games/{game_id}/deals/1/edit"
    preview = client.post(
        url,
        data={
            **hidden_fields(soup(client.get(url))),
            **{**DIAMONDS, "diamonds_0": "1", "diamonds_3": "6"},
        },
    )
    fields = {**hidden_fields(soup(preview)), "step": "save"}
    assert client.post(url, data=fields).status_code == 303
    second = client.post(url, data=fields)
    assert second.status_code == 303 and second.headers["Location"].endswith("/deals/1")
    versions = soup(client.get(f"/games/{game_id}/deals/1")).get_text(" ", strip=True)
    assert "version 2" in versions and "version 3" not in versions


def test_undo_sent_twice__undoes_one_deal(table, client):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    table.enter(game_id, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    url = f"/games/{game_id}/deals/1/undo"
    fields = hidden_fields(soup(client.get(url)))
    assert client.post(url, data=fields).status_code == 303
    second = client.post(url, data=fields)
    assert second.status_code == 303
    assert "already been undone" in soup(client.get(second.headers["Location"])).get_text()
    assert deal_count(client, game_id) == 1


# -- issue 28: a used token is "already saved" only for the same entry ---------------------
def sent_before(response) -> str:
    assert response.status_code == 409, response.status_code
    text = soup(response).get_text(" ", strip=True)
    assert "Already saved" not in text and not re.search(r"Deal \d+ (saved|corrected)\.", text)
    assert "this result is not saved" in text
    return text


def test_a_used_token_with_another_result_never_says_saved(table, client):
    """A form whose deal was saved, sent again with another result (a form kept on the phone
    and filled in again): nothing is recorded, the answer is the "changed meanwhile" page with
    the entry kept, and it can be sent again from there."""
    game_id = table.new_game()
    fields = preview_fields(table, game_id)
    assert client.post(f"/games/{game_id}/deals/new", data=fields).status_code == 303
    client.get(f"/games/{game_id}")  # the page that said "Deal 1 saved."
    other = {**fields, "diamonds_0": "1", "diamonds_3": "6"}
    answer = client.post(f"/games/{game_id}/deals/new", data=other)
    text = sent_before(answer)
    assert "deal 1 was saved from it" in text and "Recorded now" in text
    page = soup(answer)
    assert page.select_one('input[name="diamonds_3"][checked]')["value"] == "6"
    assert hidden_fields(page)["token"] != fields["token"]
    assert hidden_fields(page)["number"] == "2"
    assert deal_count(client, game_id) == 1
    assert "Already saved" not in soup(client.get(f"/games/{game_id}")).get_text()
    again = client.post(
        f"/games/{game_id}/deals/new",
        data={
            **hidden_fields(page),
            "contracts": "queens",
            **{f"q_{s}_taker": "2" for s in ("spades", "hearts", "diamonds", "clubs")},
            "step": "save",
        },
    )
    assert again.status_code == 303 and deal_count(client, game_id) == 2


def test_a_used_token_of_a_redeal_with_another_result_never_says_saved(table, client):
    """The redeal form kept on a phone, its token used by the redeal saved from it: a second
    redeal entered from it is not dropped as "already saved"."""
    game_id = table.new_game()
    page = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    fields = {**hidden_fields(page), "reason": "misdeal", "by": "1", "step": "save"}
    assert client.post(f"/games/{game_id}/thrown-in", data=fields).status_code == 303
    answer = client.post(f"/games/{game_id}/thrown-in", data={**fields, "by": "2"})
    assert "deal 1 was saved from it" in sent_before(answer)
    assert deal_count(client, game_id) == 1
    # the same redeal sent again is the one saved: nothing twice, and said so
    same = client.post(f"/games/{game_id}/thrown-in", data=fields)
    assert same.status_code == 303 and deal_count(client, game_id) == 1


def test_a_used_token_sent_as_another_deal_number_never_says_saved(table, client):
    """The same result, but sent as another deal (the phone counted the deal saved from the
    form before it): another entry, not saved from this token."""
    game_id = table.new_game()
    page = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    fields = {**hidden_fields(page), "reason": "misdeal", "by": "1", "step": "save"}
    assert client.post(f"/games/{game_id}/thrown-in", data=fields).status_code == 303
    sent_before(client.post(f"/games/{game_id}/thrown-in", data={**fields, "number": "2"}))
    assert deal_count(client, game_id) == 1


def test_a_used_correction_token_with_another_result_never_says_saved(table, client):
    """A correction form saved, then filled in again from the page kept: refused with what
    changed, never "saved"; the version this phone read and the one recorded now shown."""
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    url = f"/games/{game_id}/deals/1/edit"
    hidden = hidden_fields(soup(client.get(url)))
    first = {**hidden, **{**DIAMONDS, "diamonds_0": "1", "diamonds_3": "6"}, "step": "save"}
    assert client.post(url, data=first).status_code == 303
    client.get(f"/games/{game_id}")  # the page that said "Deal 1 corrected."
    answer = client.post(url, data={**first, "diamonds_1": "2", "diamonds_2": "4"})
    text = sent_before(answer)
    assert "What this phone read" in text and "Recorded now" in text
    assert hidden_fields(soup(answer))["version"] == "2"
    versions = soup(client.get(f"/games/{game_id}/deals/1")).get_text(" ", strip=True)
    assert "version 2" in versions and "version 3" not in versions


# -- CSRF ---------------------------------------------------------------------------------
@pytest.fixture
def csrf_client(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "csrf.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    assert app.config.get("WTF_CSRF_ENABLED", True)
    return app.test_client()


def test_csrf__a_post_with_the_forms_token_is_accepted(csrf_client):
    page = soup(csrf_client.get("/games/new"))
    token = page.find("input", attrs={"name": "csrf_token"})["value"]
    data = {f"player_{s}": n for s, n in enumerate(PLAYERS)}
    data.update(
        first_king="0", preset="standard", title="CSRF", played_on="2026-11-20", csrf_token=token
    )
    response = csrf_client.post("/games/new", data=data)
    assert response.status_code == 303
    # every form of the game carries it: enter a deal with it
    entry = soup(csrf_client.get("/games/1/deals/new?contracts=diamonds"))
    fields = {**hidden_fields(entry), **DIAMONDS, "step": "preview"}
    assert fields["csrf_token"]
    preview = csrf_client.post("/games/1/deals/new", data=fields)
    assert preview.status_code == 200
    saved = csrf_client.post(
        "/games/1/deals/new", data={**hidden_fields(soup(preview)), "step": "save"}
    )
    assert saved.status_code == 303


@pytest.mark.parametrize(
    "url", ["/games/new", "/games/1/deals/new", "/games/1/thrown-in", "/games/1/deals/1/undo"]
)
def test_csrf__a_post_without_the_token_is_refused(csrf_client, url):
    response = csrf_client.post(url, data={"player_0": "Aya"})
    assert response.status_code == 400
    assert "This form has expired" in soup(response).get_text()
