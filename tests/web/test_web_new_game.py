"""The new-game form: names, seats, house rules, who holds the 7♥, title and date."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from scorekeeper.web.access.database import get_db

from web_helpers import checked_values, error_next_to, soup

BASE = {
    "player_0": "Aya",
    "player_1": "Bilal",
    "player_2": "Carla",
    "player_3": "Dana",
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}


def post(client, **changes):
    return client.post("/games/new", data={**BASE, **changes})


def stored_rules(app, game_id=1):
    with app.app_context():
        return json.loads(get_db().table("games").get(game_id)["rules_json"])


def test_new_game__defaults_to_tonight(client):
    page = soup(client.get("/games/new"))
    today = dt.date.today()
    assert page.find("input", attrs={"name": "played_on"})["value"] == today.isoformat()
    assert page.find("input", attrs={"name": "title"})["value"] == f"{today:%A} night"
    assert page.select_one('input[name="preset"][value="standard"]').has_attr("checked")


def test_new_game__the_title_tells_the_games_of_one_night_apart(client):
    today = dt.date.today()
    post(client, played_on=today.isoformat(), title=f"{today:%A} night")
    page = soup(client.get("/games/new"))
    assert page.find("input", attrs={"name": "title"})["value"] == f"{today:%A} night, game 2"
    post(client, played_on=today.isoformat(), title=f"{today:%A} night, game 2")
    page = soup(client.get("/games/new?from=1"))
    assert page.find("input", attrs={"name": "title"})["value"] == f"{today:%A} night, game 3"
    client.set_cookie("lang", "ar")
    title = soup(client.get("/games/new")).find("input", attrs={"name": "title"})["value"]
    assert title.startswith("سهرة ") and title.endswith("، اللعبة 3")


def test_home_and_past_nights__games_titled_alike_on_one_night_told_apart(client):
    for _ in range(2):  # two games of one night, titled the same (as before titles counted)
        post(client, title="Tuesday night")
    post(client, title="Tuesday night", played_on="2026-11-21")  # another night: no number
    home = [b.get_text() for b in soup(client.get("/")).select(".list b")]
    assert sorted(home) == ["Tuesday night", "Tuesday night", "Tuesday night, game 2"]
    night = [
        h.get_text(strip=True)
        for h in soup(client.get("/history/nights/2026-11-20")).select("section.card h2 a")
    ]
    assert night == ["Tuesday night, game 2", "Tuesday night"]  # the latest first


def test_new_game__starts_and_opens_the_game(client):
    response = post(client)
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/games/1")
    page = soup(client.get("/games/1"))
    assert page.h1.get_text(strip=True) == "Friday"
    assert "Aya’s kingdom" in page.find(id="next").get_text(strip=True)


def test_new_game__same_name_twice_refused(client):
    response = post(client, player_2="Aya")
    assert response.status_code == 400
    page = soup(response)
    messages = page.find("input", attrs={"name": "player_2"}).find_previous("p", class_="error")
    assert (
        messages.get_text(strip=True) == "'Aya' is named twice; each player needs their own name."
    )
    values = checked_values(page)
    assert [values[f"player_{s}"] for s in range(4)] == ["Aya", "Bilal", "Aya", "Dana"]
    assert values["first_king"] == "0"
    assert client.get("/games/1").status_code == 404


def test_new_game__same_name_in_another_case_or_spacing_refused(client):
    response = post(client, player_3="  aya ")
    assert response.status_code == 400
    assert "named twice" in soup(response).get_text()


def test_new_game__empty_name_shown_next_to_its_field(client):
    response = post(client, player_1="   ")
    assert response.status_code == 400
    text = (
        soup(response)
        .find("input", attrs={"name": "player_1"})
        .find_previous("p", class_="error")
        .get_text(strip=True)
    )
    assert text == "Player 2 has no name."


def test_new_game__who_holds_the_seven_of_hearts_is_required(client):
    data = {k: v for k, v in BASE.items() if k != "first_king"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 400
    assert error_next_to(soup(response), "f-first_king") == ["Say who holds the 7♥."]


def test_new_game__seven_of_hearts_out_of_range_is_400(client):
    response = post(client, first_king="4")
    assert response.status_code == 400
    assert error_next_to(soup(response), "f-first_king") == ["That is not one of the choices."]


def test_new_game__bad_date_refused_by_the_engine(client):
    response = post(client, played_on="20/11/2026")
    assert response.status_code == 400
    assert "The date must be written as YYYY-MM-DD." in soup(response).get_text()


def test_new_game__names_in_any_script(client, app):
    response = post(client, player_0="ليلى", player_1="Zoë", player_2="Ἀλέξανδρος", player_3="王")
    assert response.status_code == 303
    page = soup(client.get("/games/1"))
    assert "ليلى" in [b.get_text() for b in page.select("table.sheet bdi")]


def test_new_game__names_suggested_from_earlier_players(client):
    post(client, player_0="ليلى")
    options = [o["value"] for o in soup(client.get("/games/new")).select("#known-players option")]
    assert sorted(options) == sorted(["ليلى", "Bilal", "Carla", "Dana"])


def test_new_game__a_known_player_keeps_one_identity(client, app):
    post(client)
    post(client, player_0="aya", player_1="Nour")
    with app.app_context():
        names = sorted(r["name"] for r in get_db().table("players").rows)
    assert names == ["Aya", "Bilal", "Carla", "Dana", "Nour"]


def test_new_game__seat_diagram_shows_direction_of_play(client):
    page = soup(client.get("/games/new"))
    diagram = page.find(id="diagram")
    assert [s.get_text(" ", strip=True)[:1] for s in diagram.select(".seat")] == list("1234")
    assert "counter-clockwise" in page.get_text()
    assert "player 2 sits on player 1’s right" in page.get_text()


@pytest.mark.parametrize(
    "preset, expected",
    [
        ("standard", {}),
        ("complex", {"combining": "complex"}),
        ("partnership", {"partnership": True}),
    ],
)
def test_new_game__presets(client, app, preset, expected):
    assert post(client, preset=preset).status_code == 303
    rules = stored_rules(app)
    assert {k: v for k, v in rules.items() if k in expected} == expected


def test_new_game__every_variant_as_a_custom_setting(client, app):
    response = post(
        client,
        preset="custom",
        self_capture="leader-credit",
        swap_diamonds_collections="y",
        combining="combination",
        partnership="y",
        team_result="worst-loses",
        rotation="table-picks",
        fixed_order_on="y",
        fixed_1="trex",
        fixed_2="queens",
        fixed_3="king_of_hearts",
        fixed_4="diamonds",
        fixed_5="collections",
        sweep_on="y",
        sweep_tricks="10",
        no_heart_lead="y",
        must_discard_penalty="y",
        kh_redeal_any_doubleton="y",
        reverse_scores="y",
        split_queens_replay="y",
        no_redeal_requests="y",
    )
    assert response.status_code == 303
    assert stored_rules(app) == {
        "doubling": False,
        "self_capture": "leader-credit",
        "swap_diamonds_collections": True,
        "combining": "combination",
        "partnership": True,
        "team_result": "worst-loses",
        "rotation": "table-picks",
        "fixed_order": ["trex", "queens", "king_of_hearts", "diamonds", "collections"],
        "sweep_replay": {"collections_tricks": 10},
        "no_heart_lead": True,
        "must_discard_penalty": True,
        "kh_redeal_any_doubleton": True,
        "reverse_scores": True,
        "split_queens_replay": True,
        "no_redeal_requests": True,
    }


def test_new_game__custom_fixed_order_with_a_contract_twice_refused(client):
    response = post(
        client,
        preset="custom",
        doubling="y",
        fixed_order_on="y",
        fixed_1="trex",
        fixed_2="trex",
        fixed_3="king_of_hearts",
        fixed_4="diamonds",
        fixed_5="collections",
    )
    assert response.status_code == 400
    messages = error_next_to(soup(response), "g-rules")
    assert (
        len(messages) == 1 and "'fixed_order' must be null or list each of the five" in messages[0]
    )
    assert checked_values(soup(response))["preset"] == "custom"


def test_new_game__presets_carry_their_settings_for_the_script(client):
    page = soup(client.get("/games/new"))
    complex_rules = json.loads(page.select_one('input[value="complex"]')["data-rules"])
    assert complex_rules["combining"] == "complex"
    assert page.select_one('input[value="custom"]').get("data-rules") is None


def test_new_game__from_a_game_that_does_not_exist_is_404(client):
    assert client.get("/games/new?from=99").status_code == 404
    assert client.get("/games/new?from=abc").status_code == 404


def test_new_game__names_are_shown_as_text_never_as_markup(client):
    assert post(client, player_0='<script>alert("x")</script>').status_code == 303
    page = client.get("/games/1").get_data(as_text=True)
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    home = soup(client.get("/"))
    assert not [s for s in home.find_all("script") if not s.get("src")]


def test_home__resume_a_game_in_one_tap(client):
    post(client)
    link = soup(client.get("/")).select_one(".list a")
    assert link["href"] == "/games/1"
    assert "next: Aya’s kingdom" in link.get_text()
