"""A bracket holds (issue 38, item 2; and item 9's first 500): New tournament with a field left
out or sent empty gets its form back; a seat of a tournament's or a club night's table is never
renamed to another player of that event, and only the organiser fixes names there; a match whose
next round is seated is closed until the organiser reopens it; every bracket page answers for
any data the store can hold."""

from __future__ import annotations

import pytest

from scorekeeper.store.db import connect
from test_tournaments import EIGHT, form, load, play_out
from web_helpers import soup

SIX = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah"]


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
