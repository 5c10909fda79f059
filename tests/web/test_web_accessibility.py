"""What a screen reader is told, read from the HTML: every field or group shown with an error is
invalid and described by that error (``aria-invalid``, ``aria-describedby``), fields without one
are neither, and the scoreboards that refresh themselves are polite live regions. The browser
suite reads the same from Chromium's accessibility tree (test_browser_accessibility.py)."""

from __future__ import annotations

from web_helpers import COMPLEX, form_fields, soup


def described_errors(page) -> dict[str, str]:
    """Each element marked invalid: its id (or name), and the text of what describes it."""
    out = {}
    for element in page.select('[aria-invalid="true"]'):
        ids = element["aria-describedby"].split()
        text = " ".join(page.find(id=i).get_text(" ", strip=True) for i in ids)
        out[element.get("id") or element.get("name")] = text
    return out


def test_entry_form__a_group_error_describes_its_group(client, table):
    game_id = table.new_game(first_king=0, preset="complex")
    deal = {
        "king": 0,
        "contracts": COMPLEX.split(","),
        "king_of_hearts": {"taker": 3},
        "diamonds": [5, 4, 4, 0],
        "queens": {
            "spades": {"taker": 0},
            "hearts": {"taker": 1},
            "diamonds": {"taker": 3},
            "clubs": {"taker": 2},
        },
        "tricks": [5, 4, 4, 0],
    }
    page = soup(table.post_entry(game_id, COMPLEX, form_fields(deal)))
    errors = described_errors(page)
    assert "took the Q♦, so they took at least one diamond" in errors["g-diamonds"]
    group = page.find(id="g-diamonds")
    assert group["aria-describedby"] == "g-diamonds-error"
    assert group.find(id="g-diamonds-error") is not None  # the error sits in its group
    assert all(text for text in errors.values())


def test_new_game__a_field_error_describes_its_field_and_no_other(client):
    response = client.post(
        "/games/new",
        data={
            "player_0": "Aya",
            "player_1": "Bilal",
            "player_2": "Carla",
            "player_3": "Dana",
            "first_king": "0",
            "preset": "standard",
            "pin": "12",
        },
    )
    assert response.status_code == 400
    page = soup(response)
    errors = described_errors(page)
    assert list(errors) == ["pin"]
    assert "4 to 12 digits" in errors["pin"]
    assert not page.find(id="player_0").has_attr("aria-invalid")


def test_settings_words__a_bad_word_describes_its_field(client):
    page = soup(client.get("/settings"))
    field = page.select_one("#words input[type=text]")
    response = client.post("/settings/words", data={field["name"]: "<" * 41, "next": "/"})
    errors = described_errors(soup(response))
    assert list(errors) == [field["id"]], errors


def test_pin__a_wrong_pin_describes_the_pin_field(app, client, table):
    game_id = table.new_game(pin="4321")
    other = app.test_client()
    response = other.post(f"/games/{game_id}/unlock", data={"pin": "1111", "next": ""})
    assert response.status_code == 400
    errors = described_errors(soup(response))
    assert list(errors) == ["pin"] and "That is not the table’s PIN." in errors["pin"]


def test_scoreboards_are_polite_live_regions(app, client, table):
    game_id = table.new_game()
    for url in (f"/games/{game_id}", f"/games/{game_id}/watch"):
        live = soup(app.test_client().get(url)).find(id="live")
        assert live["aria-live"] == "polite" and live.has_attr("data-poll")


def test_issue37_other__no_table_header_is_empty_on_a_players_page(app, client):
    """axe's rule empty-table-header: the corner of the Trex-places table is a plain cell."""
    from history_helpers import import_docs, simulated_games

    import_docs(app, simulated_games(1, seed=3, last_night="2026-11-20"))
    page = soup(client.get("/players/1"))
    assert page.find(id="trex-places") is not None
    empty = [str(th) for th in page.select("th") if not th.get_text(strip=True)]
    assert empty == []
