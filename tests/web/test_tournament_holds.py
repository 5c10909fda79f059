"""A bracket holds (issue 38, item 2; and item 9's first 500): New tournament with a field left
out or sent empty gets its form back; a seat of a tournament's or a club night's table is never
renamed to another player of that event, and only the organiser fixes names there; a match whose
next round is seated is closed until the organiser reopens it; every bracket page answers for
any data the store can hold."""

from __future__ import annotations

import json
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamebuilder import standard_game
from history_helpers import query
from scorekeeper.engine import InvalidResult
from scorekeeper.store import closing, storage
from scorekeeper.store.db import connect
from test_tournaments import EIGHT, finish, form, load, play_out
from i18n_helpers import english_left
from web_helpers import soup

SIX = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah"]


def storage_add(app, game_id: int, deal) -> None:
    db = connect(app.config["DATABASE"])
    try:
        number = len(list(db.query("select 1 from deals where game_id = ?", [game_id]))) + 1
        storage.add_deal(
            db, game_id, deal, token=f"x{game_id:03d}n{number:02d}" + "y" * 14, number=number
        )
    finally:
        db.close()


def play_out_last(app, game_id: int) -> None:
    """The standard game's deals the game lacks, entered again."""
    have = query(app, "select count(*) as n from deals where game_id = ?", [game_id])[0]["n"]
    for deal in standard_game()["deals"][have:]:
        storage_add(app, game_id, deal)


def execute(app, sql: str, params=()) -> None:
    db = connect(app.config["DATABASE"])
    try:
        with db.atomic():
            db.execute(sql, list(params))
    finally:
        db.close()


FULL = {
    "title": "Cup",
    "played_on": "2026-11-26",
    "entrants": "\n".join(SIX),
    "format": "top-two",
    "seeding": "entered",
    "preset": "standard",
    "best_of": "1",
    "confirm": "y",
}


@pytest.mark.parametrize("field", list(FULL))
@pytest.mark.parametrize("how", ["missing", "empty", "unknown"])
def test_issue38_9__new_tournament_with_a_field_missing_empty_or_unknown_gets_the_form(
    client, field, how
):
    data = dict(FULL)
    if how == "missing":
        del data[field]
    elif how == "empty":
        data[field] = ""
    else:
        data[field] = "zzz"
    response = client.post("/tournaments/new", data=data)
    assert response.status_code in (303, 400), (field, how, response.status_code)
    if response.status_code == 400:
        page = soup(response)
        assert page.select_one("form#new-game textarea[name=entrants]") is not None
        assert page.select(".error, .errors, [role=alert]"), "a message says what is wrong"


# -- the bracket pages answer for what the store holds ---------------------------------------
BRACKET_PAGES = ("", "/wall", "/state.json", "/bracket.pdf", "/bracket.pdf?lang=ar")


def start(client, entrants=EIGHT, **extra) -> int:
    response = client.post("/tournaments/new", data=form(entrants, **extra))
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def pages_answer(client, tid: int) -> list[str]:
    """Every bracket page's answer: 200 each, or the test fails; the bracket page's text."""
    for page in BRACKET_PAGES:
        response = client.get(f"/tournaments/{tid}{page}")
        assert response.status_code == 200, (page, response.status_code)
    return [
        li.get_text(" ", strip=True)
        for li in soup(client.get(f"/tournaments/{tid}")).select("#bracket-problems li")
    ]


def test_issue38_2__an_entrant_entered_twice_is_said_on_every_bracket_page(client, app):
    """The state the issue's rename left (a database from before the rename was refused): the
    entrant of match 2 entered twice, the renamed one gone, every match of round 1 played."""
    tid = start(client)
    t = load(app, tid)
    execute(
        app,
        "update tournament_entrants set player_id = (select player_id from "
        "tournament_entrants where tournament_id = ? and seed = ?) "
        "where tournament_id = ? and seed = ?",
        [tid, t.rounds[0][1].table.entrants[0], tid, t.rounds[0][0].table.entrants[0]],
    )
    for m in t.rounds[0]:
        play_out(app, m.game_id)
    problems = pages_answer(client, tid)
    assert any("twice" in p for p in problems), problems
    assert len(load(app, tid).rounds) == 1  # nothing seated on it
    state = client.get(f"/tournaments/{tid}/state.json").get_json()
    assert state["problems"] == problems


# -- names in a tournament's or a club night's table ---------------------------------------
def club_night(client) -> None:
    """A club night of eight, two rounds, its first seated as entered."""
    response = client.post(
        "/clubs/new",
        data={
            "title": "Night",
            "played_on": "2026-11-26",
            "players": "\n".join(f"P{i}" for i in range(8)),
            "rounds": "2",
            "first_round": "entered",
            "preset": "standard",
        },
    )
    assert response.status_code == 303


def edit_key(app, game_id: int) -> str:
    return query(app, "select edit_key from games where id = ?", [game_id])[0]["edit_key"]


def table_phone(app, game_id: int):
    """A phone that holds only this table's edit link."""
    phone = app.test_client()
    assert phone.get(f"/e/{edit_key(app, game_id)}").status_code == 303
    return phone


def test_issue38_2__a_table_phone_cannot_fix_a_name_and_keeps_its_form(client, app):
    tid = start(client)
    game = load(app, tid).rounds[0][0].game_id
    phone = table_phone(app, game)
    shown = phone.get(f"/games/{game}/seats/0/name")
    assert shown.status_code == 200 and soup(shown).select_one("#organiser-only")
    for lang in ("en", "ar"):
        response = phone.post(
            f"/games/{game}/seats/0/name", data={"name": "Ayah"}, headers={"Accept-Language": lang}
        )
        assert response.status_code == 403
        page = soup(response)
        assert page.select_one("input[name=name]")["value"] == "Ayah"  # the input kept
        words = page.select_one("form").get_text(" ", strip=True)
        assert ("organiser" in words) if lang == "en" else english_left(words) == [], words
    assert [e[0] for e in load(app, tid).entrants] == EIGHT


def test_issue38_2__the_organiser_cannot_rename_a_seat_to_another_entrant(client, app):
    tid = start(client)
    t = load(app, tid)
    first, second = t.rounds[0]
    other = t.name(second.table.entrants[0])
    response = client.post(f"/games/{first.game_id}/seats/0/name", data={"name": other})
    assert response.status_code == 400
    assert "another entrant of this tournament" in soup(response).get_text(" ", strip=True)
    assert load(app, tid).entrants == t.entrants
    play_out(app, first.game_id)
    finish(client, app, second.game_id)  # the deal that ends the round seats the final
    assert pages_answer(client, tid) == []
    assert len(load(app, tid).rounds) == 2  # the final is seated


def test_issue38_2__the_organisers_fix_follows_the_entrant_through_the_tournament(client, app):
    """A name fixed in a table is the entrant's through the tournament: its entry and every
    table that seats it, even when the player has other games."""
    tid = start(client)
    t = load(app, tid)
    play_out(app, t.rounds[0][0].game_id)
    finish(client, app, t.rounds[0][1].game_id)  # seats the final
    assert client.get(f"/tournaments/{tid}").status_code == 200  # hands it the final's table
    t = load(app, tid)  # its players now have two games each
    final = t.rounds[1][0]
    seed = final.table.entrants[0]
    response = client.post(f"/games/{final.game_id}/seats/0/name", data={"name": "Zed"})
    assert response.status_code == 303
    t = load(app, tid)
    assert t.name(seed) == "Zed" and t.problems == ()
    assert pages_answer(client, tid) == []


def test_issue38_2__a_club_night_seat_is_never_renamed_to_another_player_of_the_night(client, app):
    club_night(client)
    tables = query(app, "select game_id from club_tables order by table_number")
    game, other = tables[0]["game_id"], tables[1]["game_id"]
    elsewhere = query(
        app,
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        "where gp.game_id = ? and gp.seat = 0",
        [other],
    )[0]["name"]
    response = client.post(f"/games/{game}/seats/0/name", data={"name": elsewhere})
    assert response.status_code == 400
    assert (
        table_phone(app, game)
        .post(f"/games/{game}/seats/0/name", data={"name": "Someone"})
        .status_code
        == 403
    )


# -- a match closed by the next round --------------------------------------------------------
def last_deal(app, game_id: int) -> dict:
    return query(
        app,
        "select id, number, version, version_key from deals where game_id = ? order by number desc limit 1",
        [game_id],
    )[0]


def undo_last(phone, app, game_id: int):
    deal = last_deal(app, game_id)
    return phone.post(
        f"/games/{game_id}/deals/{deal['number']}/undo",
        data={
            "deal_id": deal["id"],
            "version": deal["version"],
            "version_key": deal["version_key"],
        },
    )


def with_final(client, app) -> tuple[int, object]:
    tid = start(client)
    first, second = load(app, tid).rounds[0]
    play_out(app, first.game_id)
    finish(client, app, second.game_id)  # the deal that ends the round seats the final
    t = load(app, tid)
    assert len(t.rounds) == 2
    return tid, t


def test_issue38_2__no_deal_is_undone_or_corrected_after_the_final_is_seated(client, app):
    tid, t = with_final(client, app)
    game = t.rounds[0][0].game_id
    deals = query(app, "select count(*) as n from deals where game_id = ?", [game])[0]["n"]
    for phone in (table_phone(app, game), client):  # the organiser too: it reopens first
        response = undo_last(phone, app, game)
        assert response.status_code == 409
        assert "reopen the match" in soup(response).get_text(" ", strip=True)
        number = last_deal(app, game)["number"]
        assert phone.get(f"/games/{game}/deals/{number}/edit").status_code == 409
        assert phone.get(f"/games/{game}/deals/{number}/undo").status_code == 409
    assert query(app, "select count(*) as n from deals where game_id = ?", [game])[0]["n"] == deals
    assert load(app, tid).rounds == t.rounds


def test_issue38_2__the_organiser_reopens_a_match_while_the_final_has_no_deal(client, app):
    tid, t = with_final(client, app)
    game = t.rounds[0][0].game_id
    phone = table_phone(app, game)
    assert phone.post(f"/tournaments/{tid}/rounds/1/reopen").status_code == 403
    response = client.post(f"/tournaments/{tid}/rounds/1/reopen")
    assert response.status_code == 303
    assert len(load(app, tid).rounds) == 1  # the final unseated
    assert undo_last(phone, app, game).status_code == 303  # the table corrects its game
    assert pages_answer(client, tid) == []
    play_out_last(app, game)
    assert client.get(f"/tournaments/{tid}").status_code == 200
    assert len(load(app, tid).rounds) == 1  # held until the organiser seats it
    assert client.post(f"/tournaments/{tid}/rounds").status_code == 303
    assert client.get(f"/tournaments/{tid}").status_code == 200
    assert len(load(app, tid).rounds) == 2


def test_issue38_2__reopening_is_refused_once_the_final_has_a_deal(client, app):
    tid, t = with_final(client, app)
    final = t.rounds[1][0].game_id
    deal = standard_game()["deals"][0]
    storage_add(app, final, deal)
    response = client.post(f"/tournaments/{tid}/rounds/1/reopen")
    assert response.status_code == 409
    assert "can no longer be reopened" in soup(response).get_text(" ", strip=True)
    assert len(load(app, tid).rounds) == 2


def test_issue38_2__a_club_night_table_is_closed_once_the_next_round_is_seated(client, app):
    club_night(client)
    club = query(app, "select id from club_nights")[0]["id"]
    games = [r["game_id"] for r in query(app, "select game_id from club_tables")]
    for game in games:
        play_out(app, game)
    assert client.post(f"/clubs/{club}/rounds", data={}).status_code == 303
    phone = table_phone(app, games[0])
    response = undo_last(phone, app, games[0])
    assert response.status_code == 409
    assert "take round 2 back" in soup(response).get_text(" ", strip=True)
    assert client.post(f"/clubs/{club}/rounds/2/undo", data={}).status_code == 303
    assert undo_last(phone, app, games[0]).status_code == 303


# -- property: any data the store can hold ----------------------------------------------------
CORRUPTIONS = (
    "entrant_twice",
    "seat_another_entrant",
    "undo_after_seated",
    "other_entrants",
    "table_gone",
    "final_flag",
)


def corrupt(app, tid: int, how: str, data) -> None:
    """Change the stored tournament as the store let it be changed before a bracket held (the
    rename, an undo after the next round), or as a restored backup may hold it (its checks let
    through any seeds in range at a table numbered from 1)."""
    t = load(app, tid)
    count = len(t.entrants)
    ids = query(
        app, "select seed, player_id from tournament_entrants where tournament_id = ?", [tid]
    )
    tables = query(
        app,
        "select round, table_number, game_number, game_id from tournament_tables "
        "where tournament_id = ? order by round, table_number, game_number",
        [tid],
    )
    if not tables and how != "entrant_twice":
        return  # every table is gone already: nothing of a table left to damage
    pick = data.draw(st.sampled_from(tables)) if tables else None
    if how == "entrant_twice":
        a, b = (ids[i] for i in data.draw(st.permutations(range(len(ids))))[:2])
        execute(
            app,
            "update tournament_entrants set player_id = ? where tournament_id = ? and seed = ?",
            [b["player_id"], tid, a["seed"]],
        )
    elif how == "seat_another_entrant":
        seated = {
            r["player_id"]
            for r in query(
                app, "select player_id from game_players where game_id = ?", [pick["game_id"]]
            )
        }
        others = [r["player_id"] for r in ids if r["player_id"] not in seated]
        if others:
            execute(
                app,
                "update game_players set player_id = ? where game_id = ? and seat = ?",
                [data.draw(st.sampled_from(others)), pick["game_id"], data.draw(st.integers(0, 3))],
            )
    elif how == "undo_after_seated":
        db = connect(app.config["DATABASE"])
        try:
            for _ in range(data.draw(st.integers(1, 3))):
                row = next(
                    db.query(
                        "select id, version from deals where game_id = ? "
                        "order by number desc limit 1",
                        [pick["game_id"]],
                    ),
                    None,
                )
                if row is None:
                    break
                with patch.object(closing, "check_open", lambda db, game_id: None):
                    try:
                        storage.undo_deal(db, pick["game_id"], row["id"], version=row["version"])
                    except InvalidResult:
                        break
        finally:
            db.close()
    elif how == "other_entrants":
        size = 2 if t.fmt == "pairs" else 4
        seeds = data.draw(st.lists(st.integers(0, count - 1), min_size=size, max_size=size))
        execute(
            app,
            "update tournament_tables set entrants_json = ? where game_id = ?",
            [json.dumps(seeds), pick["game_id"]],
        )
    elif how == "table_gone":
        last = tables[-1]
        execute(app, "delete from tournament_tables where game_id = ?", [last["game_id"]])
    elif how == "final_flag":
        execute(
            app,
            "update tournament_tables set final = 1 - final where game_id = ?",
            [pick["game_id"]],
        )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_issue38_2__every_bracket_page_answers_for_any_data_the_store_can_hold(client, app, data):
    fmt = data.draw(st.sampled_from(["top-two", "pairings", "pairs"]))
    run = query(app, "select count(*) as n from tournaments")[0]["n"]
    names = [f"E{run}x{i}" for i in range(8)]
    if fmt == "pairs":
        entrants = [f"{a} & {b}" for a, b in zip(names[::2], names[1::2])]
        tid = start(client, entrants, format="pairs", preset="partnership")
    else:
        tid = start(client, names[: data.draw(st.sampled_from([6, 8]))], format=fmt)
    for m in load(app, tid).rounds[0]:
        play_out(app, m.game_id)
    if data.draw(st.booleans()):
        client.post(f"/tournaments/{tid}/rounds")  # the organiser seats the next round
    for how in data.draw(st.lists(st.sampled_from(CORRUPTIONS), min_size=1, max_size=3)):
        corrupt(app, tid, how, data)
    for page in BRACKET_PAGES:
        response = client.get(f"/tournaments/{tid}{page}")
        assert response.status_code == 200 or 400 <= response.status_code < 500, page
    for page in ("", "/wall"):
        client.get(f"/tournaments/{tid}{page}")  # seated or not, read again
        assert client.get(f"/tournaments/{tid}{page}").status_code == 200
