"""A bracket holds (issue 38, item 2, and item 9's 500 on New tournament) through the real
server (``scorekeeper serve``: waitress, CSRF on), each phone with its own cookies: the seat
rename to another entrant is refused and every bracket page answers 200; a table phone's undo
after the final was seated is refused; the organiser's reopen unseats the final while it has no
deal; New tournament without its format answers 400 with the form."""

from __future__ import annotations

import re

import pytest

from gamebuilder import standard_game
from hosted_box import hosted_box, query
from live_server import Phone, Server, hidden_fields
from test_tournaments import play_out_in

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]
PAGES = ("", "/wall", "/state.json", "/bracket.pdf", "/bracket.pdf?lang=ar")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("holds")
    running = Server(folder / "holds.sqlite3", folder / "instance").start()
    yield running
    running.stop()


OPEN: list[Phone] = []


@pytest.fixture(autouse=True)
def closed_after():
    """Every phone's connection is closed when its test ends."""
    yield
    while OPEN:
        OPEN.pop().close()


def phone_of(server) -> Phone:
    OPEN.append(Phone(server.port))
    return OPEN[-1]


def post(phone: Phone, form_page: str, action: str, fields: dict[str, str]):
    """Send *fields* to *action* with the CSRF token of the form on *form_page*."""
    shown = phone.request("form", "GET", form_page)
    return phone.request("post", "POST", action, {**hidden_fields(shown.body), **fields})


def new_tournament(server, phone: Phone, names: list[str]) -> int:
    fields = {
        "title": "Cup",
        "played_on": "2026-11-26",
        "entrants": "\n".join(names),
        "format": "top-two",
        "seeding": "entered",
        "preset": "standard",
        "confirm": "",
    }
    reply = post(phone, "/tournaments/new", "/tournaments/new", fields)
    assert reply.status == 303, reply.body[:2000]
    return int(reply.location.rstrip("/").split("/")[-1])


def tables(server, tid: int) -> list[dict]:
    return query(
        server.database,
        "select round, table_number, game_id from tournament_tables where tournament_id = ? "
        "order by round, table_number",
        (tid,),
    )


def play_out(server, game_id: int) -> None:
    play_out_in(server.database, game_id)


def table_phone(server, game_id: int) -> Phone:
    (row,) = query(server.database, "select edit_key from games where id = ?", (game_id,))
    phone = phone_of(server)
    assert phone.request("edit link", "GET", f"/e/{row['edit_key']}").status == 303
    return phone


def names(prefix: str) -> list[str]:
    return [f"{prefix} {n}" for n in EIGHT]


def test_issue38_2__live_the_seat_rename_to_another_entrant_is_refused_and_every_page_is_200(
    server,
):
    organiser = phone_of(server)
    entrants = names("R")
    tid = new_tournament(server, organiser, entrants)
    first, second = (t["game_id"] for t in tables(server, tid))
    other = query(
        server.database,
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        "where gp.game_id = ? and gp.seat = 0",
        (second,),
    )[0]["name"]
    page = f"/games/{first}/seats/0/name"
    phone = table_phone(server, first)
    refused = post(phone, page, page, {"name": other})
    assert refused.status == 403 and "only its organiser fixes names" in refused.body
    assert f'value="{other}"' in refused.body  # the form kept
    refused = post(organiser, page, page, {"name": other})
    assert refused.status == 400 and "another entrant of this tournament" in refused.body
    for t in tables(server, tid):
        play_out(server, t["game_id"])  # by the store alone: nothing seated
    for suffix in PAGES:
        reply = organiser.request("page", "GET", f"/tournaments/{tid}{suffix}")
        assert reply.status == 200, (suffix, reply.status)
        assert "cannot be" not in reply.body
    assert len({t["round"] for t in tables(server, tid)}) == 1  # no GET seats it
    bracket = f"/tournaments/{tid}"
    assert post(organiser, bracket, f"{bracket}/rounds", {}).status == 303
    assert len({t["round"] for t in tables(server, tid)}) == 2  # the organiser seated the final


def test_issue38_2__live_a_table_phones_undo_after_the_final_was_seated_is_refused(server):
    organiser = phone_of(server)
    tid = new_tournament(server, organiser, names("U"))
    game = tables(server, tid)[0]["game_id"]
    for t in tables(server, tid):
        play_out(server, t["game_id"])
    phone = table_phone(server, game)
    undo = f"/games/{game}/deals/{len(standard_game()['deals'])}/undo"
    kept = hidden_fields(phone.request("undo form", "GET", undo).body)  # opened before
    bracket = f"/tournaments/{tid}"
    assert post(organiser, bracket, f"{bracket}/rounds", {}).status == 303
    assert len(tables(server, tid)) == 3  # the final seated
    reply = phone.request("undo", "POST", undo, kept)
    assert reply.status == 409
    assert "reopen the match" in reply.body
    assert query(server.database, "select count(*) as n from deals where game_id = ?", (game,))[0][
        "n"
    ] == len(standard_game()["deals"])


def test_issue38_2__live_the_organisers_reopen_unseats_the_final_while_it_has_no_deal(server):
    organiser = phone_of(server)
    tid = new_tournament(server, organiser, names("O"))
    for t in tables(server, tid):
        play_out(server, t["game_id"])
    bracket = f"/tournaments/{tid}"
    assert post(organiser, bracket, f"{bracket}/rounds", {}).status == 303
    assert len(tables(server, tid)) == 3
    game = tables(server, tid)[0]["game_id"]
    stranger = table_phone(server, game)
    action = f"{bracket}/rounds/1/reopen"
    assert post(stranger, f"/games/{game}/share", action, {}).status == 403
    reply = post(organiser, bracket, action, {})
    assert reply.status == 303
    assert len(tables(server, tid)) == 2  # the final unseated
    undo = f"/games/{game}/deals/{len(standard_game()['deals'])}/undo"
    assert post(stranger, undo, undo, {}).status == 303  # the table corrects its game
    for suffix in PAGES:
        assert organiser.request("page", "GET", f"{bracket}{suffix}").status == 200


def test_issue38_9__live_new_tournament_without_its_format_answers_400_with_the_form(server):
    phone = phone_of(server)
    shown = phone.request("form", "GET", "/tournaments/new")
    fields = {
        **hidden_fields(shown.body),
        "title": "Cup",
        "played_on": "2026-11-26",
        "entrants": "\n".join(names("F")),
        "seeding": "entered",
        "preset": "standard",
    }
    fields.pop("format", None)
    for value in (None, ""):
        if value is not None:
            fields["format"] = value
        reply = phone.request("post", "POST", "/tournaments/new", fields)
        assert reply.status == 400
        assert "Choose how each match is played." in reply.body
        assert re.search(r"<textarea[^>]*name=\"entrants\"[^>]*>F Aya", reply.body)


def test_issue38_2__through_caddy_the_seat_rename_is_refused_and_every_bracket_page_is_200(
    tmp_path,
):
    """The issue's steps on a hosted box, Caddy in front: a phone holding only match 1's edit
    link renames a seat to an entrant of match 2; the organiser's phone then reads the bracket."""
    with hosted_box(tmp_path) as box:
        organiser = box.member("127.0.0.61")
        fields = {
            "title": "Cup",
            "played_on": "2026-11-26",
            "entrants": "\n".join(EIGHT),
            "format": "top-two",
            "seeding": "entered",
            "preset": "standard",
        }
        reply = organiser.post_form("/tournaments/new", fields)
        assert reply.status == 303, reply.body[:2000]
        tid = int(reply.location.rstrip("/").split("/")[-1])
        rows = box.query(
            "select game_id from tournament_tables where tournament_id = ? order by table_number",
            (tid,),
        )
        first, second = (r["game_id"] for r in rows)
        (key,) = box.query("select edit_key from games where id = ?", (first,))
        other = box.query(
            "select p.name from game_players gp join players p on p.id = gp.player_id "
            "where gp.game_id = ? and gp.seat = 0",
            (second,),
        )[0]["name"]
        phone = box.phone("127.0.0.62")
        assert phone.request("edit link", "GET", f"/e/{key['edit_key']}").status == 303
        refused = phone.post_form(f"/games/{first}/seats/0/name", {"name": other})
        assert refused.status == 403 and "only its organiser fixes names" in refused.body
        for r in rows:
            play_out_in(box.database, r["game_id"])
        bracket = f"/tournaments/{tid}"
        shown = organiser.request("bracket", "GET", bracket)
        seat = organiser.request(
            "seat",
            "POST",
            f"{bracket}/rounds",
            hidden_fields(shown.body),
            {"Referer": organiser.root + bracket},
        )
        assert seat.status == 303, seat.status  # the organiser seats the final
        for suffix in PAGES:
            reply = organiser.request("page", "GET", f"/tournaments/{tid}{suffix}")
            assert reply.status == 200, (suffix, reply.status)
        assert (
            len(box.query("select 1 from tournament_tables where tournament_id = ?", (tid,))) == 3
        )
