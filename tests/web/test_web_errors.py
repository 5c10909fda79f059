"""A 404 and a 400 path for each route, each a friendly page with a way back; never a 500."""

from __future__ import annotations

import pytest

from web_helpers import hidden_fields, soup


@pytest.fixture
def game(table):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    return game_id


def assert_friendly(response, status, back="Home"):
    assert response.status_code == status
    page = soup(response)
    assert page.find("a", class_="btn", string=back) is not None, page.get_text(" ", strip=True)
    return page


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/games/99"),
        ("get", "/games/99/history"),
        ("get", "/games/99/deals/new"),
        ("post", "/games/99/deals/new"),
        ("get", "/games/99/thrown-in"),
        ("post", "/games/99/thrown-in"),
        ("get", "/games/99/deals/1"),
        ("get", "/games/99/deals/1/edit"),
        ("post", "/games/99/deals/1/edit"),
        ("get", "/games/99/deals/1/undo"),
        ("post", "/games/99/deals/1/undo"),
        ("get", "/games/new?from=99"),
        ("get", "/no/such/page"),
        ("get", "/games/abc"),
    ],
)
@pytest.mark.slow
def test_404__game_that_does_not_exist(client, game, method, url):
    assert_friendly(getattr(client, method)(url), 404)


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/games/{g}/deals/9"),
        ("get", "/games/{g}/deals/0"),
        ("get", "/games/{g}/deals/9/edit"),
        ("post", "/games/{g}/deals/9/edit"),
        ("get", "/games/{g}/deals/9/undo"),
        ("get", "/games/{g}/deals/new?king=7&contracts=queens"),
        ("get", "/games/{g}/deals/new?king=x"),
        ("get", "/games/{g}/thrown-in?king=-1"),
    ],
)
@pytest.mark.slow
def test_404__deal_or_player_that_does_not_exist(client, game, method, url):
    page = assert_friendly(
        getattr(client, method)(url.format(g=game)), 404, back="Back to the game"
    )
    assert page.find("a", string="Back to the game")["href"] == f"/games/{game}"


def test_400__new_game_form_incomplete(client):
    response = client.post("/games/new", data={"player_0": "Aya"})
    assert response.status_code == 400
    assert soup(response).find("form", id="new-game") is not None


@pytest.mark.parametrize(
    "url, data",
    [
        ("/games/{g}/deals/new", {}),
        (
            "/games/{g}/deals/new",
            {"king": "9", "contracts": "queens", "number": "2", "token": "x" * 22},
        ),
        (
            "/games/{g}/deals/new",
            {"king": "0", "contracts": "poker", "number": "2", "token": "x" * 22},
        ),
        (
            "/games/{g}/deals/new",
            {"king": "0", "contracts": "queens", "number": "two", "token": "x" * 22},
        ),
        (
            "/games/{g}/deals/new",
            {"king": "0", "contracts": "queens", "number": "2", "token": "<script>"},
        ),
        ("/games/{g}/thrown-in", {"king": "0", "number": "2"}),
        ("/games/{g}/deals/1/edit", {"king": "0", "contracts": "diamonds", "number": "1"}),
        ("/games/{g}/deals/1/undo", {"deal_id": "x", "version": "1"}),
    ],
)
@pytest.mark.slow
def test_400__malformed_hidden_fields(client, game, url, data):
    assert_friendly(client.post(url.format(g=game), data=data), 400, back="Back to the game")


def test_400__entry_with_out_of_range_field_returns_the_form(table, game):
    response = table.post_entry(game, "queens", {"q_spades_taker": "9"})
    assert response.status_code == 400
    assert soup(response).find("button", attrs={"value": "preview"}) is not None


def test_thrown_in_without_reason__saved_as_another_reason(client, game):
    """Changed: saying why is optional (a redeal costs who asked and save); it was a 400."""
    page = soup(client.get(f"/games/{game}/thrown-in"))
    assert "optional" in page.find(id="f-reason").legend.get_text()
    response = client.post(f"/games/{game}/thrown-in", data={**hidden_fields(page), "by": "1"})
    assert response.status_code == 303
    sheet = soup(client.get(response.headers["Location"])).select_one("table.sheet")
    assert "thrown in (other reason), asked by Bilal" in sheet.get_text(" ", strip=True)


def test_400__thrown_in_without_who_asked(client, game):
    page = soup(client.get(f"/games/{game}/thrown-in"))
    response = client.post(
        f"/games/{game}/thrown-in", data={**hidden_fields(page), "reason": "misdeal"}
    )
    assert response.status_code == 400
    assert "Say who asked for the redeal." in soup(response).find(id="f-by").get_text()


def test_400__choosing_a_contract_that_is_not_left(client, game):
    response = client.get(f"/games/{game}/deals/new?contracts=diamonds")
    assert response.status_code == 400
    assert "not one of the choices left" in soup(response).get_text()


def test_400__a_king_who_cannot_deal_next(client, game):
    assert_friendly(
        client.get(f"/games/{game}/deals/new?king=2&contracts=queens"), 400, back="Back to the game"
    )


@pytest.mark.slow
def test_400__next_deal_when_the_game_is_over(client, table):
    game_id = table.new_game()
    deals = {
        "king_of_hearts": {"king_of_hearts": {"taker": 1}},
        "diamonds": {"diamonds": [4, 3, 3, 3]},
        "queens": {"queens": {s: {"taker": 1} for s in ("spades", "hearts", "diamonds", "clubs")}},
        "collections": {"tricks": [4, 3, 3, 3]},
        "trex": {"trex_order": [0, 1, 2, 3]},
    }
    for k in range(4):
        for contract, fields in deals.items():
            table.enter(game_id, {"king": k, "contracts": [contract], **fields})
    for url in ("/games/{g}/deals/new?contracts=trex", "/games/{g}/thrown-in"):
        page = assert_friendly(client.get(url.format(g=game_id)), 400, back="Back to the game")
        assert "This game is over" in page.get_text()


def test_405__wrong_method_is_a_friendly_page(client, game):
    assert_friendly(client.delete(f"/games/{game}"), 405)


def test_400__form_too_large(client, game):
    response = client.post("/games/new", data={"title": "x" * 100_000})
    assert response.status_code == 413
    assert "Home" in soup(response).get_text()


def test_500__friendly_page_when_something_breaks(app, monkeypatch):
    app.config["PROPAGATE_EXCEPTIONS"] = False
    from scorekeeper.store import storage

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(storage, "list_games", broken)
    response = app.test_client().get("/")
    assert response.status_code == 500
    text = soup(response).get_text(" ", strip=True)
    assert "Something went wrong" in text and "disk on fire" not in text
