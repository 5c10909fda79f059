"""Entry forms: exactly what RULES.md asks for, the engine's messages next to their fields, the
user's input kept, and the server's fill-in of the fourth count and the last place."""

from __future__ import annotations

import pytest

from scorekeeper.web.making.dealforms import fill_counts, fill_order, form_field_name

from web_helpers import COMPLEX, checked_values, error_next_to, hidden_fields, soup


@pytest.fixture
def game(table):
    return table.new_game()


def names_of_fields(page):
    return {i["name"] for i in page.select("form[method=post] input")} - {
        "csrf_token",
        "token",
        "king",
        "contracts",
        "number",
        "version",
        "deal",
    }


# -- what each form takes ------------------------------------------------------------------
@pytest.mark.parametrize(
    "contracts, fields",
    [
        ("king_of_hearts", {"kh_taker", "kh_doubled_by"}),
        ("diamonds", {f"diamonds_{s}" for s in range(4)}),
        (
            "queens",
            {
                f"q_{s}_{k}"
                for s in ("spades", "hearts", "diamonds", "clubs")
                for k in ("taker", "doubled_by")
            },
        ),
        ("collections", {f"tricks_{s}" for s in range(4)}),
        ("trex", {f"trex_{p}" for p in range(1, 5)}),
    ],
)
def test_entry_form__takes_what_the_rules_list(table, game, contracts, fields):
    assert names_of_fields(table.open_form(game, contracts)) == fields


def test_entry_form__counts_are_chips_from_0_to_13(table, game):
    page = table.open_form(game, "diamonds")
    values = [i["value"] for i in page.select('input[name="diamonds_2"]')]
    assert values == [str(n) for n in range(14)]
    assert page.find(id="g-diamonds")["data-sum"] == "13"


def test_entry_form__who_took_it_is_one_tap_on_a_name(table, game):
    page = table.open_form(game, "king_of_hearts")
    labels = [lab.get_text(strip=True) for lab in page.select("#f-kh_taker label")]
    assert labels == ["Aya", "Bilal", "Carla", "Dana"]
    assert all(i["type"] == "radio" for i in page.select("#f-kh_taker input"))


def test_entry_form__no_doubling_controls_when_doubling_is_off(table):
    game_id = table.new_game(preset="custom", combining="none")  # no "doubling" box ticked
    page = table.open_form(game_id, "king_of_hearts")
    assert names_of_fields(page) == {"kh_taker"}
    assert page.select_one("main summary") is None


def test_entry_form__led_by_only_under_leader_credit(table):
    game_id = table.new_game(preset="custom", doubling="y", self_capture="leader-credit")
    page = table.open_form(game_id, "king_of_hearts")
    assert names_of_fields(page) == {"kh_taker", "kh_doubled_by", "kh_led_by"}
    assert page.select_one('[data-leader="kh"]') is not None


def test_entry_form__combined_deal_on_one_page(table):
    game_id = table.new_game(preset="complex")
    page = table.open_form(game_id, COMPLEX)
    for group in ("g-king_of_hearts", "g-diamonds", "g-queens", "g-tricks"):
        assert page.find(id=group) is not None
    assert page.h1.get_text().strip() == "Deal 1: Complex"  # the contract links to its rules


# -- the engine's messages, next to their fields, with the input kept ------------------------
def test_diamonds__sum_wrong__message_next_to_the_counts_and_input_kept(table, game):
    fields = {"diamonds_0": "4", "diamonds_1": "4", "diamonds_2": "4", "diamonds_3": "4"}
    response = table.post_entry(game, "diamonds", fields)
    assert response.status_code == 400
    page = soup(response)
    assert error_next_to(page, "g-diamonds") == ["The counts add up to 16, not 13."]
    kept = checked_values(page)
    assert {k: kept[k] for k in fields} == fields


def test_diamonds__three_counts_that_already_exceed_13(table, game):
    response = table.post_entry(
        game, "diamonds", {"diamonds_0": "10", "diamonds_1": "5", "diamonds_2": "0"}
    )
    assert response.status_code == 400
    assert error_next_to(soup(response), "g-diamonds") == ["The counts add up to 15, not 13."]
    assert "diamonds_3" not in checked_values(soup(response))


def test_collections__two_counts_missing(table, game):
    response = table.post_entry(game, "collections", {"tricks_0": "10", "tricks_1": "1"})
    assert response.status_code == 400
    assert error_next_to(soup(response), "g-tricks") == ["Give four counts, one per player."]


def test_counts__server_fills_the_fourth_without_javascript(table, game):
    response = table.post_entry(
        game, "collections", {"tricks_0": "3", "tricks_1": "4", "tricks_3": "1"}
    )
    assert response.status_code == 200
    page = soup(response)
    assert hidden_fields(page)["tricks_2"] == "5"
    assert "Tricks: Aya 3, Bilal 4, Carla 5, Dana 1" in page.get_text()


def test_trex__server_fills_the_last_place(table, game):
    response = table.post_entry(game, "trex", {"trex_1": "2", "trex_2": "0", "trex_3": "3"})
    assert response.status_code == 200
    assert hidden_fields(soup(response))["trex_4"] == "1"


def test_trex__a_player_twice(table, game):
    response = table.post_entry(game, "trex", {"trex_1": "2", "trex_2": "2", "trex_3": "3"})
    assert response.status_code == 400
    page = soup(response)
    assert error_next_to(page, "g-trex_order") == ["Carla finishes twice in the order."]
    assert checked_values(page)["trex_2"] == "2"


def test_trex__order_incomplete(table, game):
    response = table.post_entry(game, "trex", {"trex_1": "2"})
    assert response.status_code == 400
    assert error_next_to(soup(response), "g-trex_order") == [
        "Give the finishing order of all four players."
    ]


def test_king_of_hearts__taker_missing(table, game):
    response = table.post_entry(game, "king_of_hearts", {"kh_doubled_by": "1"})
    assert response.status_code == 400
    page = soup(response)
    assert error_next_to(page, "f-kh_taker") == ["Say who took the K♥."]
    assert checked_values(page)["kh_doubled_by"] == "1"
    assert page.find(id="f-kh_doubled_by").find_parent("details") is None  # never folded away


def test_king_of_hearts__leader_credit_needs_who_led(table):
    game_id = table.new_game(preset="custom", doubling="y", self_capture="leader-credit")
    response = table.post_entry(game_id, "king_of_hearts", {"kh_taker": "2", "kh_doubled_by": "2"})
    assert response.status_code == 400
    assert error_next_to(soup(response), "f-kh_led_by") == [
        "The K♥ was doubled and taken by its holder: say who led to that trick."
    ]
    response = table.post_entry(
        game_id, "king_of_hearts", {"kh_taker": "2", "kh_doubled_by": "2", "kh_led_by": "1"}
    )
    assert response.status_code == 200
    assert "K♥: Carla (doubled by Carla, Bilal led)" in soup(response).get_text()


def test_king_of_hearts__who_led_ignored_when_not_needed(table):
    game_id = table.new_game(preset="custom", doubling="y", self_capture="leader-credit")
    response = table.post_entry(
        game_id, "king_of_hearts", {"kh_taker": "2", "kh_doubled_by": "1", "kh_led_by": "0"}
    )
    assert response.status_code == 200
    assert "K♥: Carla (doubled by Bilal)" in soup(response).get_text()


def test_queens__a_queen_without_taker(table, game):
    fields = {
        "q_spades_taker": "0",
        "q_hearts_taker": "1",
        "q_diamonds_taker": "2",
        "q_diamonds_doubled_by": "3",
    }
    response = table.post_entry(game, "queens", fields)
    assert response.status_code == 400
    page = soup(response)
    assert error_next_to(page, "f-q_clubs_taker") == ["Say who took the Q♣."]
    kept = checked_values(page)
    assert {k: kept[k] for k in fields} == fields


def test_combined__collections_cross_check_next_to_the_card(table):
    game_id = table.new_game(preset="complex")
    fields = {
        "kh_taker": "3",
        "diamonds_0": "5",
        "diamonds_1": "4",
        "diamonds_2": "4",
        "diamonds_3": "0",
        "q_spades_taker": "0",
        "q_hearts_taker": "1",
        "q_diamonds_taker": "1",
        "q_clubs_taker": "2",
        "tricks_0": "5",
        "tricks_1": "4",
        "tricks_2": "4",
        "tricks_3": "0",
    }
    response = table.post_entry(game_id, COMPLEX, fields)
    assert response.status_code == 400
    assert error_next_to(soup(response), "f-kh_taker") == [
        "Dana took no trick, so they cannot have taken the K♥."
    ]


def test_combined__too_many_cards_for_the_tricks(table):
    game_id = table.new_game(preset="complex")
    fields = {
        "kh_taker": "3",
        "diamonds_0": "0",
        "diamonds_1": "0",
        "diamonds_2": "0",
        "diamonds_3": "13",
        "q_spades_taker": "3",
        "q_hearts_taker": "3",
        "q_diamonds_taker": "3",
        "q_clubs_taker": "3",
        "tricks_0": "4",
        "tricks_1": "4",
        "tricks_2": "4",
        "tricks_3": "1",
    }
    response = table.post_entry(game_id, COMPLEX, fields)
    assert response.status_code == 400
    assert error_next_to(soup(response), "g-tricks") == [
        "Dana took 17 penalty cards; at four cards a trick that takes at least 5 tricks, not 1."
    ]


@pytest.mark.parametrize(
    "field, value",
    [
        ("diamonds_0", "x"),
        ("diamonds_0", "14"),
        ("diamonds_0", "-1"),
        ("diamonds_0", "2.5"),
    ],
)
def test_malformed_or_out_of_range_count_is_400_with_a_message(table, game, field, value):
    fields = {
        "diamonds_0": "4",
        "diamonds_1": "4",
        "diamonds_2": "4",
        "diamonds_3": "1",
        field: value,
    }
    response = table.post_entry(game, "diamonds", fields)
    assert response.status_code == 400
    assert error_next_to(soup(response), f"f-{field}") == ["That is not one of the choices."]
    assert checked_values(soup(response))["diamonds_1"] == "4"


def test_out_of_range_player_is_400_with_a_message(table, game):
    response = table.post_entry(game, "king_of_hearts", {"kh_taker": "7"})
    assert response.status_code == 400
    assert error_next_to(soup(response), "f-kh_taker") == ["That is not one of the choices."]


def test_contract_already_played_in_the_kingdom(table, client, game):
    page = table.open_form(game, "diamonds")
    hidden = hidden_fields(page)
    table.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    hidden["number"] = "2"
    response = client.post(
        f"/games/{game}/deals/new",
        data={**hidden, "diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3", "step": "preview"},
    )
    assert response.status_code == 400
    text = soup(response).select_one(".errors").get_text(" ", strip=True)
    assert text == "Deal 2, Diamonds: Diamonds has already been played in this kingdom."


def test_preview__shows_the_scores_and_totals_before_saving(table, client, game):
    response = table.post_entry(game, "king_of_hearts", {"kh_taker": "1", "kh_doubled_by": "3"})
    assert response.status_code == 200
    page = soup(response)
    rows = [
        [c.get_text(strip=True) for c in r.find_all("td")]
        for r in page.select("table.standings tbody tr")
    ]
    assert rows[1] == ["Bilal", "\u2212150", "\u2212150"]
    assert rows[3] == ["Dana", "+75", "+75"]
    assert client.get(f"/games/{game}/deals/1").status_code == 404  # nothing stored yet


def test_preview__change_something_brings_the_form_back_filled(table, client, game):
    response = table.post_entry(
        game, "diamonds", {"diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3"}
    )
    hidden = hidden_fields(soup(response))
    back = client.post(f"/games/{game}/deals/new", data={**hidden, "step": "edit"})
    assert back.status_code == 200
    assert checked_values(soup(back))["diamonds_3"] == "3"


def test_sweep_replay__preview_says_the_deal_is_replayed(table):
    game_id = table.new_game(preset="custom", doubling="y", sweep_on="y", sweep_tricks="13")
    response = table.post_entry(
        game_id, "diamonds", {"diamonds_0": "13", "diamonds_1": "0", "diamonds_2": "0"}
    )
    assert response.status_code == 200
    assert "a sweep, replayed" in soup(response).get_text()


def test_combination__the_king_ticks_the_contracts_to_combine(table, client):
    game_id = table.new_game(preset="custom", doubling="y", combining="combination")
    page = soup(client.get(f"/games/{game_id}"))
    boxes = [i["value"] for i in page.select('#next input[type=checkbox][name="contracts"]')]
    assert boxes == ["king_of_hearts", "diamonds", "queens", "collections"]
    response = client.get(f"/games/{game_id}/deals/new?king=0&contracts=diamonds&contracts=queens")
    assert response.status_code == 200
    assert soup(response).h1.get_text().strip() == "Deal 1: Diamonds + Queens"


def test_fixed_order__only_the_next_contract_is_offered(table, client):
    game_id = table.new_game(
        preset="custom",
        doubling="y",
        fixed_order_on="y",
        fixed_1="trex",
        fixed_2="queens",
        fixed_3="king_of_hearts",
        fixed_4="diamonds",
        fixed_5="collections",
    )
    options = [
        a.get_text() for a in soup(client.get(f"/games/{game_id}")).select("#next .options a")
    ]
    assert options == ["Trex"]
    assert client.get(f"/games/{game_id}/deals/new?contracts=queens").status_code == 400


def test_table_picks__the_next_king_is_chosen(table, client):
    game_id = table.new_game(preset="custom", doubling="y", rotation="table-picks")
    for contract, extra in (
        ("king_of_hearts", {"king_of_hearts": {"taker": 1}}),
        ("diamonds", {"diamonds": [4, 3, 3, 3]}),
        (
            "queens",
            {"queens": {s: {"taker": 1} for s in ("spades", "hearts", "diamonds", "clubs")}},
        ),
        ("collections", {"tricks": [4, 3, 3, 3]}),
        ("trex", {"trex_order": [0, 1, 2, 3]}),
    ):
        table.enter(game_id, {"king": 0, "contracts": [contract], **extra})
    page = soup(client.get(f"/games/{game_id}"))
    kings = [a.get_text() for a in page.select("#next .options a")]
    assert kings == ["Bilal", "Carla", "Dana"]
    response = client.get(f"/games/{game_id}/deals/new?king=2")
    assert [a.get_text() for a in soup(response).select("#next .options a")][0] == "King of Hearts"
    assert client.get(f"/games/{game_id}/deals/new?king=0").status_code == 400


# -- the small pure helpers --------------------------------------------------------------
@pytest.mark.parametrize(
    "values, expected",
    [
        ([4, 3, 3, None], [4, 3, 3, 3]),
        ([None, 0, 0, 0], [13, 0, 0, 0]),
        ([10, 5, None, 0], [10, 5, None, 0]),
        ([4, None, None, 3], [4, None, None, 3]),
    ],
)
def test_fill_counts(values, expected):
    assert fill_counts(values) == expected


@pytest.mark.parametrize(
    "places, expected",
    [
        ([2, 0, 3, None], [2, 0, 3, 1]),
        ([None, 0, 3, 1], [2, 0, 3, 1]),
        ([2, 2, 3, None], [2, 2, 3, None]),
    ],
)
def test_fill_order(places, expected):
    assert fill_order(places) == expected


@pytest.mark.parametrize(
    "engine_field, form_field",
    [
        ("king_of_hearts", "kh_taker"),
        ("king_of_hearts.doubled_by", "kh_doubled_by"),
        ("king_of_hearts.led_by", "kh_led_by"),
        ("queens.spades", "q_spades_taker"),
        ("queens.clubs.led_by", "q_clubs_led_by"),
        ("diamonds", "diamonds"),
        ("thrown_in.by", "by"),
        ("king", "king"),
        (None, None),
    ],
)
def test_form_field_name(engine_field, form_field):
    assert form_field_name(engine_field) == form_field
