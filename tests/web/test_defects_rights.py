"""Regression tests of who may change what, each through the route or the command where the
defect was found: the takeover of a player's record, rights that could not be taken back, and
strangers locking the table out of its PIN."""

from __future__ import annotations

import re
import time

import pytest

from scorekeeper import cli
from scorekeeper.store import keys
from scorekeeper.store.db import connect

from history_helpers import query
from web_helpers import PLAYERS, admin_link, be_admin, edit_link, hidden_fields, soup

NEW_GAME = {
    **{f"player_{s}": n for s, n in enumerate(PLAYERS)},
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}


def start(client, names=PLAYERS, pin: str | None = None) -> int:
    data = {**NEW_GAME, **{f"player_{s}": n for s, n in enumerate(names)}}
    if pin:
        data["pin"] = pin
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def player(app, name: str) -> int:
    [row] = query(app, "select id from players where name = ?", [name])
    return row["id"]


def seats(app, game_id: int) -> list[str]:
    return [
        r["name"]
        for r in query(
            app,
            "select p.name from game_players gp join players p "
            "on p.id = gp.player_id where gp.game_id = ? "
            "order by gp.seat",
            [game_id],
        )
    ]


def phone(app, address: str = "192.168.1.50"):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


# -- 1. the takeover of a player's record ----------------------------------------------------
def test_takeover_of_a_players_record__a_stranger_with_a_game_of_their_own(app, client):
    """A stranger starts a game with Bilal's name, so keeps score in a game Bilal is in; they
    may not rename Bilal everywhere, nor merge Aya into their own Mallory."""
    games = [start(client) for _ in range(3)]
    stranger = phone(app, "192.168.1.66")
    own = start(stranger, ["Mallory", "Bilal", "Eve", "Trent"])
    bilal, aya, mallory = player(app, "Bilal"), player(app, "Aya"), player(app, "Mallory")
    assert stranger.get(f"/players/{bilal}/rename").status_code == 403
    assert (
        stranger.post(f"/players/{bilal}/rename", data={"name": "Bilal the Loser"}).status_code
        == 403
    )
    assert stranger.get(f"/players/{mallory}/merge?other={aya}").status_code == 403
    assert stranger.post(f"/players/{mallory}/merge", data={"other": str(aya)}).status_code == 403
    assert all(seats(app, g) == list(PLAYERS) for g in games)
    assert seats(app, own) == ["Mallory", "Bilal", "Eve", "Trent"]
    page = soup(stranger.get(f"/players/{bilal}"))
    assert page.find("a", string="Rename") is None
    assert "admin link" in page.select_one("#players-belong").get_text()


def test_takeover_of_a_players_record__the_stranger_may_fix_their_own_game_only(app, client):
    games = [start(client) for _ in range(2)]
    stranger = phone(app, "192.168.1.66")
    own = start(stranger, ["Mallory", "Bilal", "Eve", "Trent"])
    response = stranger.post(f"/games/{own}/seats/1/name", data={"name": "Bilal the Loser"})
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{own}/share"
    assert seats(app, own) == ["Mallory", "Bilal the Loser", "Eve", "Trent"]
    assert all(seats(app, g) == list(PLAYERS) for g in games)
    assert stranger.post(f"/games/{games[0]}/seats/1/name", data={"name": "X"}).status_code == 403


def test_fix_name__a_misspelling_of_this_game_alone_takes_the_new_name(app, client):
    first = start(client)
    second = start(client, ["Aya", "Bilal", "Carla", "Dnaa"])
    misspelt = player(app, "Dnaa")
    page = soup(client.get(f"/games/{second}/seats/3/name"))
    assert page.select_one("input[name=name]")["value"] == "Dnaa"
    assert client.post(f"/games/{second}/seats/3/name", data={"name": "Dana"}).status_code == 303
    assert seats(app, second) == seats(app, first) == list(PLAYERS)
    assert query(app, "select count(*) as n from players where id = ?", [misspelt])[0]["n"] == 0
    flash = soup(client.get(f"/games/{second}/share")).select_one(".flash").get_text()
    assert "Other games are as they were" in flash


def test_fix_name__a_name_in_other_games_changes_here_only(app, client):
    first = start(client)
    second = start(client)
    assert (
        client.post(f"/games/{second}/seats/0/name", data={"name": "Aya Haddad"}).status_code == 303
    )
    assert seats(app, first)[0] == "Aya" and seats(app, second)[0] == "Aya Haddad"
    assert player(app, "Aya") != player(app, "Aya Haddad")
    # a change of case alone of a name used elsewhere is the admin's rename
    response = client.post(f"/games/{first}/seats/1/name", data={"name": "BILAL"})
    assert (
        response.status_code == 400
        and "other games" in soup(response).select_one(".error").get_text()
    )
    # a player already seated in this game is refused
    response = client.post(f"/games/{first}/seats/0/name", data={"name": "bilal"})
    assert (
        response.status_code == 400 and "player 2" in soup(response).select_one(".error").get_text()
    )
    assert seats(app, first) == list(PLAYERS)


def test_fix_name__a_watcher_and_a_seat_that_is_not_there(app, client):
    game = start(client)
    watcher = phone(app)
    assert watcher.get(f"/games/{game}/seats/0/name").status_code == 403
    assert watcher.post(f"/games/{game}/seats/0/name", data={"name": "Mallory"}).status_code == 403
    assert client.get(f"/games/{game}/seats/4/name").status_code == 404
    assert client.get(f"/games/{game}/seats/{2**40}/name").status_code == 404
    assert seats(app, game) == list(PLAYERS)


# -- the admin link ----------------------------------------------------------------------------
def test_admin_link__gives_the_players_pages_and_rotation_takes_them_back(
    app, client, tmp_path, capsys
):
    start(client)
    admin = phone(app, "192.168.1.2")
    assert admin.get("/admin/" + "0" * 32).status_code == 404
    assert admin.get("/admin/not-a-key").status_code == 404
    be_admin(admin, app)
    assert admin.get("/players/1/rename").status_code == 200
    assert cli.main(["admin-link", "--db", app.config["DATABASE"]]) == 0
    printed = capsys.readouterr().out
    assert admin_link(app) in printed
    assert cli.main(["admin-link", "--rotate", "--db", app.config["DATABASE"]]) == 0
    rotated = capsys.readouterr().out
    assert admin_link(app) in rotated and admin_link(app) not in printed
    assert "no longer works" in rotated
    assert admin.get("/players/1/rename").status_code == 403
    assert admin.get(re.search(r"/admin/[0-9a-f]{32}", printed).group()).status_code == 404


def test_admin_link__shown_once_when_serve_first_starts(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("scorekeeper.web.serve.on_a_screen", lambda: True)  # not the journal
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr("scorekeeper.web.serve.serve_until_stopped", lambda app, **kwargs: None)
    database = str(tmp_path / "night.sqlite3")
    assert cli.main(["serve", "--db", database, "--port", "5077"]) == 0
    first = capsys.readouterr().out
    found = re.search(r"http://127\.0\.0\.1:5077/admin/([0-9a-f]{32})", first)
    assert found is not None
    db = connect(database)
    assert found.group(1) == keys.install_key(db, "admin")
    db.close()
    assert cli.main(["serve", "--db", database, "--port", "5077"]) == 0
    assert "/admin/" not in capsys.readouterr().out


def test_delete_player__only_the_admin_and_only_without_games(app, client):
    game = start(client)
    db = connect(app.config["DATABASE"])
    with db.atomic():
        lone = (
            db.table("players")
            .insert({"name": "Zed", "name_key": "zed", "created_at": "2026-11-20"})
            .last_pk
        )
    db.close()
    assert client.post(f"/players/{lone}/delete").status_code == 403
    assert "Delete" not in soup(client.get(f"/players/{lone}")).get_text()
    be_admin(client, app)
    assert soup(client.get(f"/players/{lone}")).select("form[action$=delete] button")
    assert soup(client.get("/players/1")).select("form[action$=delete] button") == []
    refused = client.post("/players/1/delete")
    assert refused.status_code == 400 and "cannot be deleted" in soup(refused).get_text()
    assert client.post(f"/players/{lone}/delete").status_code == 303
    assert client.get(f"/players/{lone}").status_code == 404
    assert seats(app, game) == list(PLAYERS)


# -- 8. rights taken back ----------------------------------------------------------------------
def test_revocation_by_rotation__from_the_phones_panel(app, client):
    game = start(client)
    other = phone(app, "192.168.1.7")
    assert other.get(edit_link(app, game)).status_code == 303
    old_link = edit_link(app, game)
    form = hidden_fields(soup(client.get(f"/games/{game}/share")), "#take-back form")
    response = client.post(f"/games/{game}/edit-key", data=form)
    assert response.status_code == 303
    assert "every other phone only watches" in soup(client.get(f"/games/{game}/share")).get_text()
    assert edit_link(app, game) != old_link
    assert other.get(f"/games/{game}/deals/new").status_code == 403
    assert other.get(old_link).status_code == 404
    assert client.get(f"/games/{game}/deals/new").status_code == 200  # this phone keeps it
    assert other.post(f"/games/{game}/edit-key").status_code == 403


def test_revocation_by_rotation__from_the_command_line(app, client, capsys):
    game = start(client)
    other = phone(app, "192.168.1.7")
    other.get(edit_link(app, game))
    old_link = edit_link(app, game)
    assert cli.main(["links", str(game), "--rotate", "--db", app.config["DATABASE"]]) == 0
    out = capsys.readouterr().out
    assert edit_link(app, game) in out and old_link not in out and "no longer works" in out
    assert other.get(f"/games/{game}/deals/new").status_code == 403
    assert client.get(f"/games/{game}/deals/new").status_code == 403  # every phone


def test_revocation_by_a_new_pin__phones_the_old_pin_let_in_only_watch(app, client):
    game = start(client, pin="4821")
    by_pin, by_link = phone(app, "192.168.1.8"), phone(app, "192.168.1.9")
    assert by_pin.post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 303
    by_link.get(edit_link(app, game))
    assert by_pin.get(f"/games/{game}/deals/new").status_code == 200
    response = client.post(f"/games/{game}/pin", data={"pin": "975310"})
    assert response.status_code == 303
    assert by_pin.get(f"/games/{game}/deals/new").status_code == 403
    assert by_link.get(f"/games/{game}/deals/new").status_code == 200
    assert by_pin.post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 400
    assert by_pin.post(f"/games/{game}/unlock", data={"pin": "975310"}).status_code == 303
    # the same digits set again are a new PIN too
    client.post(f"/games/{game}/pin", data={"pin": "975310"})
    assert by_pin.get(f"/games/{game}/deals/new").status_code == 403


def test_revocation_by_removing_the_pin(app, client, capsys):
    game = start(client, pin="4821")
    by_pin = phone(app, "192.168.1.8")
    by_pin.post(f"/games/{game}/unlock", data={"pin": "4821"})
    page = soup(client.get(f"/games/{game}/share"))
    remove = page.find("button", string="Remove the PIN").find_parent("form")
    data = {i["name"]: i.get("value", "") for i in remove.select("input")}
    assert client.post(f"/games/{game}/pin", data=data).status_code == 303
    assert query(app, "select pin_hash from games")[0]["pin_hash"] is None
    assert by_pin.get(f"/games/{game}/deals/new").status_code == 403
    # from the command line: a new PIN takes back what the old one gave
    assert cli.main(["links", str(game), "--pin", "2468", "--db", app.config["DATABASE"]]) == 0
    assert by_pin.post(f"/games/{game}/unlock", data={"pin": "2468"}).status_code == 303
    assert cli.main(["links", str(game), "--pin", "13579", "--db", app.config["DATABASE"]]) == 0
    assert "only watch now" in capsys.readouterr().out
    assert by_pin.get(f"/games/{game}/deals/new").status_code == 403


@pytest.mark.slow
@pytest.mark.parametrize("pin", ["12", "12a4", "١٢٣٤", "1" * 13, ""])
def test_pin_change__refused_with_the_rule_and_nothing_changed(app, client, pin):
    game = start(client, pin="4821")
    [before] = query(app, "select pin_hash from games")
    response = client.post(f"/games/{game}/pin", data={"pin": pin})
    assert response.status_code == 400
    assert "4 to 12 digits" in soup(response).select_one("#table-pin .error").get_text()
    assert query(app, "select pin_hash from games") == [before]


# -- 9. strangers locking the table out of its PIN -------------------------------------------
@pytest.mark.slow
def test_pin_lockout__strangers_from_many_addresses_do_not_lock_out_the_table(app, client):
    game = start(client, pin="4821")
    for n in range(keys.PIN_TRIES_PER_GAME + 5):  # past the game's window limit
        stranger = phone(app, f"10.0.{n // 200}.{n % 200 + 1}")
        assert stranger.post(f"/games/{game}/unlock", data={"pin": f"{n:04d}"}).status_code == 400
    at_the_table = phone(app, "192.168.1.20")
    assert at_the_table.post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 303


def test_pin_lockout__a_days_cap_stops_a_distributed_guess_and_the_page_says_so(app, client):
    game = start(client, pin="4821")
    db = connect(app.config["DATABASE"])
    now = time.time()
    with db.atomic():  # a day of guesses from as many addresses, spread over the day
        db.table("pin_attempts").insert_all(
            {
                "game_id": game,
                "client": f"10.1.{n // 250}.{n % 250}",
                "at": now - keys.PIN_DAY + 60 + n * 60,
            }
            for n in range(keys.PIN_FAILURES_PER_DAY)
        )
    db.close()
    fresh = phone(app, "192.168.1.30")
    refused = fresh.post(f"/games/{game}/unlock", data={"pin": "4821"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    for page in (
        refused,
        fresh.get(f"/games/{game}/unlock"),
        fresh.get(f"/games/{game}/deals/new"),
    ):
        html = soup(page)
        assert "locked for now" in html.select_one("#pin-locked").get_text()
        assert "edit link" in html.select_one("#unlock").get_text()
        assert html.find("input", attrs={"name": "pin"}) is None
    assert fresh.get(edit_link(app, game)).status_code == 303  # the way in that still works
    assert fresh.get(f"/games/{game}/deals/new").status_code == 200


def test_pin_lockout__a_phones_own_wrong_tries_and_its_ipv6_network(app, client):
    game = start(client, pin="4821")
    for n in range(keys.PIN_TRIES):
        guesser = phone(app, f"2001:db8:1:2::{n + 1:x}")  # one /64, many addresses
        assert guesser.post(f"/games/{game}/unlock", data={"pin": "0000"}).status_code == 400
    same_network = phone(app, "2001:db8:1:2::99")
    page = same_network.get(f"/games/{game}/unlock")
    assert "Too many wrong PINs" in soup(page).select_one("#pin-wait").get_text()
    assert same_network.post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 429
    assert (
        phone(app, "2001:db8:1:3::1")
        .post(f"/games/{game}/unlock", data={"pin": "4821"})
        .status_code
        == 303
    )


def test_pin_limits__what_a_distributed_guess_costs():
    """The figures docs/players.md and keys.py give: at most PIN_FAILURES_PER_DAY guesses a day."""
    days_4 = 10**4 / 2 / keys.PIN_FAILURES_PER_DAY
    days_6 = 10**6 / 2 / keys.PIN_FAILURES_PER_DAY
    assert (days_4, days_6) == (50, 5000)
    assert keys.client_of("2001:db8:1:2::7") == keys.client_of("2001:db8:1:2:ffff::1")
    assert keys.client_of("::ffff:10.0.0.1") == "10.0.0.1"
    assert keys.client_of("10.0.0.1") == "10.0.0.1" and keys.client_of(None) == "unknown"
