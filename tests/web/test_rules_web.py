"""The rule book's later clauses through the pages: the thrown-in form offers only the redeals
that can happen then (RULES.md "King of Hearts", "Trex"), the swept player may let the table keep
a sweep (RULES.md "Sweeps"), each impossible entry is refused next to its field with the input
kept, and a game stored before a check was added still opens and says which deal no longer
passes."""

from __future__ import annotations

import json

from history_helpers import query
from scorekeeper.store.db import connect
from web_helpers import PLAYERS, hidden_fields, soup

KH = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}}


def offered(client, game_id: int) -> list[str]:
    page = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    return [i["value"] for i in page.select("input[name=reason]")]


def test_redeals_only_the_reasons_that_can_happen_are_offered(client, table):
    game_id = table.new_game()
    assert offered(client, game_id) == ["kh-redeal", "trex-twos", "misdeal", "other"]
    table.enter(game_id, KH)  # King of Hearts is played: no K♥ redeal in this kingdom
    assert offered(client, game_id) == ["trex-twos", "misdeal", "other"]
    table.enter(game_id, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    assert offered(client, game_id) == ["misdeal", "other"]


def test_king_of_hearts_redeal_request_refused_once_king_of_hearts_was_played(client, table):
    game_id = table.new_game()
    table.enter(game_id, KH)
    page = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    response = client.post(
        f"/games/{game_id}/thrown-in",
        data={**hidden_fields(page), "reason": "kh-redeal", "by": "2", "step": "save"},
    )
    assert response.status_code == 400
    text = soup(response).get_text(" ", strip=True)
    assert "Aya cannot announce King of Hearts now, so nobody can ask for a K♥ redeal" in text
    assert len(query(client.application, "select id from deals")) == 1  # nothing stored


def test_king_of_hearts_redeal_the_reason_names_the_ace_of_hearts_alone(client, table):
    game_id = table.new_game()
    labels = soup(client.get(f"/games/{game_id}/thrown-in?king=0")).get_text(" ", strip=True)
    assert "The K♥ alone, the A♥ alone, or K♥ A♥" in labels


def sweep_game(table) -> int:
    return table.new_game(preset="custom", sweep_on="y", sweep_tricks="13")


def test_sweeps_kept_as_played_scores_normally(client, table):
    game_id = sweep_game(table)
    hidden = hidden_fields(table.open_form(game_id, "diamonds", 0))
    fields = {
        "diamonds_0": "13",
        "diamonds_1": "0",
        "diamonds_2": "0",
        "diamonds_3": "0",
        "sweep_kept": "y",
    }
    response = client.post(f"/games/{game_id}/deals/new", data={**hidden, **fields, "step": "save"})
    assert response.status_code == 303
    [deal] = query(client.application, "select record_json, score_0 from deals")
    assert json.loads(deal["record_json"])["sweep_kept"] is True and deal["score_0"] == -130


def test_sweeps_asked_for_are_replayed_and_score_nothing(client, table):
    game_id = sweep_game(table)
    hidden = hidden_fields(table.open_form(game_id, "diamonds", 0))
    fields = {"diamonds_0": "13", "diamonds_1": "0", "diamonds_2": "0", "diamonds_3": "0"}
    response = client.post(f"/games/{game_id}/deals/new", data={**hidden, **fields, "step": "save"})
    assert response.status_code == 303
    [deal] = query(client.application, "select record_json, score_0 from deals")
    assert "sweep_kept" not in json.loads(deal["record_json"]) and deal["score_0"] == 0
    assert "sweep, replayed" in soup(client.get(f"/games/{game_id}")).get_text(" ")


def test_sweeps_kept_on_a_deal_that_is_not_a_sweep_is_refused_with_the_input_kept(client, table):
    game_id = sweep_game(table)
    hidden = hidden_fields(table.open_form(game_id, "diamonds", 0))
    fields = {
        "diamonds_0": "4",
        "diamonds_1": "3",
        "diamonds_2": "3",
        "diamonds_3": "3",
        "sweep_kept": "y",
    }
    response = client.post(f"/games/{game_id}/deals/new", data={**hidden, **fields, "step": "save"})
    assert response.status_code == 400
    page = soup(response)
    assert "nobody swept this deal, so there is no sweep to keep" in page.get_text(" ").lower()
    assert page.select_one("input[name=sweep_kept]").has_attr("checked")
    assert page.select_one("input[name=diamonds_0][value='4']").has_attr("checked")


def test_the_sweep_choice_is_offered_only_under_sweep_replay(client, table):
    plain = table.new_game()
    assert table.open_form(plain, "diamonds", 0).select_one("input[name=sweep_kept]") is None
    assert (
        table.open_form(sweep_game(table), "diamonds", 0).select_one("input[name=sweep_kept]")
        is not None
    )


def test_combined_deals_a_trickless_leader_is_refused_next_to_the_form(client, table):
    game_id = table.new_game(
        preset="custom", combining="complex", doubling="y", self_capture="leader-credit"
    )
    contracts = "king_of_hearts,diamonds,queens,collections"
    hidden = hidden_fields(table.open_form(game_id, contracts, 0))
    fields = {
        "kh_taker": "1",
        "kh_doubled_by": "1",
        "kh_led_by": "2",
        **{f"q_{s}_taker": "1" for s in ("spades", "hearts", "diamonds")},
        "q_clubs_taker": "3",
        **{f"diamonds_{i}": str(n) for i, n in enumerate((3, 6, 0, 4))},
        **{f"tricks_{i}": str(n) for i, n in enumerate((3, 6, 0, 4))},
    }
    response = client.post(f"/games/{game_id}/deals/new", data={**hidden, **fields, "step": "save"})
    assert response.status_code == 400
    assert (
        "Carla took no trick and is not the King, so they cannot have led to the trick with the K♥"
    ) in soup(response).get_text(" ", strip=True)
    assert query(client.application, "select id from deals") == []


def test_a_stored_game_that_no_longer_passes_still_opens_and_says_why(app, client, table):
    game_id = table.new_game()
    table.enter(game_id, KH)
    db = connect(app.config["DATABASE"])  # as a game stored before the check was added
    try:
        with db.atomic():
            db.execute(
                "insert into deals (game_id, number, king, contracts, thrown_in, record_json, "
                "score_0, score_1, score_2, score_3, version, created_at, updated_at) values "
                "(?, 2, 0, '', 'kh-redeal', ?, 0, 0, 0, 0, 1, '2026-11-20', '2026-11-20')",
                [game_id, json.dumps({"king": 0, "thrown_in": {"reason": "kh-redeal", "by": 2}})],
            )
    finally:
        db.close()
    page = soup(client.get(f"/games/{game_id}"))
    note = page.select_one("#no-longer-passes").get_text(" ", strip=True)
    assert (
        "Deal 2 no longer passes: Aya cannot announce King of Hearts now, so nobody can "
        "ask for a K♥ redeal."
    ) in note
    record = soup(client.get(f"/history/games/{game_id}"))
    assert record.select_one("#no-longer-passes") is not None
    assert client.get(f"/games/{game_id}/sheet.pdf").status_code == 200
    assert PLAYERS[0] in page.get_text()
