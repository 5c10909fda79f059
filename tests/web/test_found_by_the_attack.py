"""Issue 27, item 8: what the same attack found.

(a) A name fixed in a stranger's own game changed another table's club night (its list of
    players renamed, a player removed, once a 500): a name fixed in a game changes that game
    alone, unless the phone has rights over the group's club nights (its admin).
(b) A restored backup held a PIN hash of 30 million PBKDF2 rounds: restore checks every stored
    hash's parameters against what the app writes.
(c) Look-alike names: invisible and direction characters are refused, and a name that looks
    like a known player's is asked about on New game.
(d) ``/games/١`` and ``/games/01`` answered as ``/games/1``: one address per thing.
"""

from __future__ import annotations

import pytest

from scorekeeper.store import clubnights
from scorekeeper.store.db import connect

from history_helpers import query
from test_defects_restore import copy_of, database, refused, restore  # noqa: F401 (a fixture)
from web_helpers import be_admin, soup

NEW_GAME = {"first_king": "0", "preset": "standard", "title": "Own game", "played_on": "2026-11-20"}
NIGHT = ["Aya", "Bilal", "Carla", "Dana", "Rami", "Nour", "Sami", "Hala", "Lina"]


def start(client, names) -> int:
    data = {**NEW_GAME, **{f"player_{s}": n for s, n in enumerate(names)}}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


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


def night_of(app, club_id: int) -> clubnights.ClubNight:
    db = connect(app.config["DATABASE"])
    try:
        return clubnights.load(db, club_id)
    finally:
        db.close()


@pytest.fixture
def club(app, client):
    """A club night of nine: one sits out each round (Lina, with no game yet, here)."""
    response = client.post(
        "/clubs/new",
        data={
            "title": "Café",
            "played_on": "2026-11-20",
            "rounds": "3",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join(NIGHT),
        },
    )
    assert response.status_code == 303
    club_id = int(response.headers["Location"].rsplit("/", 1)[1])
    out = night_of(app, club_id).rounds[0].sitting_out
    assert len(out) == 1
    return club_id, out[0]


def test_item8a_a_name_fixed_in_a_strangers_game_never_changes_a_club_night(app, club):
    club_id, out = club
    players_before = night_of(app, club_id).players
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    own = start(stranger, [out, "Mallory", "Eve", "Trent"])
    fix = f"/games/{own}/seats/0/name"
    # renamed in the stranger's game only
    assert stranger.post(fix, data={"name": "RENAMED by stranger"}).status_code == 303
    assert seats(app, own)[0] == "RENAMED by stranger"
    assert night_of(app, club_id).players == players_before
    # a second fix, to a known player not in the night: the night still has its player
    stranger.post(fix, data={"name": out})  # back to the night's player's name
    start(stranger, ["Zara", "Mallory", "Eve", "Trent"])
    assert stranger.post(fix, data={"name": "Zara"}).status_code == 303
    assert seats(app, own)[0] == "Zara"
    assert night_of(app, club_id).players == players_before
    assert query(app, "select count(*) as n from players where name = ?", [out])[0]["n"] == 1
    # to another player of the night (it answered 500): that seat only
    response = stranger.post(fix, data={"name": "Bilal"})
    assert response.status_code in (303, 400)
    assert night_of(app, club_id).players == players_before


def test_item8a_the_admin_may_still_fix_a_club_night_players_name_everywhere(app, client, club):
    club_id, out = club
    own = start(client, [out, "Mallory", "Eve", "Trent"])
    be_admin(client, app)
    assert client.post(f"/games/{own}/seats/0/name", data={"name": out + "a"}).status_code == 303
    assert out + "a" in night_of(app, club_id).players
    # into another player of the same night: refused in words, never a 500
    response = client.post(f"/games/{own}/seats/0/name", data={"name": "Bilal"})
    assert response.status_code == 400
    said = soup(response).select_one("main").get_text(" ", strip=True)
    assert "Bilal is another player of the club night Café" in said, said
    assert out + "a" in night_of(app, club_id).players


@pytest.mark.parametrize(
    "address",
    [
        "/games/١",
        "/games/01",
        "/games/٠١",
        "/games/1٢",
        "/games/001/watch",
        "/games/1/deals/01",
        "/players/０1",
        "/games/𝟏",
    ],
)
def test_item8d_one_address_per_thing(app, client, address):
    start(client, ["Aya", "Bilal", "Carla", "Dana"])
    assert client.get("/games/1").status_code == 200
    assert client.get(address).status_code == 404


# -- (b) a restored PIN hash holds its parameters to what the app writes ------------------------
SALT, DIGEST = "A" * 16, "0" * 128


@pytest.mark.parametrize(
    "stored",
    [
        f"pbkdf2:sha256:30000000${SALT}${'0' * 64}",  # the 24 s a wrong try took
        f"scrypt:1048576:8:1${SALT}${DIGEST}",  # the same method, 32 times the cost
        f"scrypt:32768:8:64${SALT}${DIGEST}",
        f"pbkdf2:sha256:600000${SALT}${'0' * 64}",  # another method, at its usual cost
        f"scrypt:32768:8:1${'A' * 64}${DIGEST}",  # a salt longer than the app writes
    ],
)
def test_item8b_restore_refuses_a_pin_hash_not_as_the_app_writes_it(
    tmp_path,
    database,  # noqa: F811 (the fixture)
    capsys,
    stored,
):
    path = copy_of(tmp_path, database, "night.sqlite3", f"update games set pin_hash = '{stored}'")
    said = refused(
        path,
        database,
        tmp_path,
        capsys,
        "game 1",
        "not a PIN's hash as this scorekeeper writes one (scrypt:32768:8:1)",
    )
    assert stored not in said


def test_item8b_the_app_writes_what_restore_accepts_and_a_foreign_hash_never_matches(
    tmp_path,
    database,  # noqa: F811 (the fixture)
    capsys,
):
    import time

    from scorekeeper.store import keys

    written = keys.pin_hash("4821")
    assert keys.PIN_HASH.fullmatch(written) and keys.pin_matches(written, "4821")
    path = copy_of(tmp_path, database, "night.sqlite3")
    status, out = restore(path, database, capsys)
    assert status == 0, out.err
    started = time.perf_counter()
    assert not keys.pin_matches(f"pbkdf2:sha256:30000000${SALT}${'0' * 64}", "4821")
    assert time.perf_counter() - started < 0.01  # refused before any hashing


# -- (c) look-alike names ------------------------------------------------------------------------
def new_game_form(client, names, **extra):
    data = {**NEW_GAME, **{f"player_{s}": n for s, n in enumerate(names)}, **extra}
    return client.post("/games/new", data=data)


@pytest.mark.parametrize(
    "name",
    [
        "A\u200bya",
        "Aya\u202e 999 :\u202c",
        "\u2067Aya\u2069",
        "Ay\u00ada",
        "Aya\u200d",
        "\ufeffAya",
        "Ay\u3164a",
    ],
)
def test_item8c_a_name_hiding_characters_is_refused_with_the_input_kept(client, name):
    response = new_game_form(client, [name, "Bilal", "Carla", "Dana"])
    assert response.status_code == 400
    page = soup(response)
    said = page.select_one("#player_0-error").get_text(" ", strip=True)
    assert "does not show" in said, said
    assert page.select_one("#player_0")["value"]  # the input kept, as far as it can show
    assert query_count(client, "select count(*) as n from games") == 0


def query_count(client, sql) -> int:
    return query(client.application, sql)[0]["n"]


@pytest.mark.parametrize("name", ["A\u200bya", "Aya\u202e"])
def test_item8c_the_same_check_on_a_rename_and_an_import(app, client, name):
    import json

    from scorekeeper.engine import InvalidResult
    from scorekeeper.store import players
    from scorekeeper.store.refused import Refused

    start(client, ["Aya", "Bilal", "Carla", "Dana"])
    with pytest.raises(Refused, match="do not show"):
        players.checked_name(name)
    from gamebuilder import standard_game
    from scorekeeper.engine import loads

    with pytest.raises(InvalidResult, match="does not show"):
        loads(json.dumps(standard_game(players=[name, "Bilal", "Carla", "Dana"])))


@pytest.mark.parametrize("name", ["\u0410ya", "\u0391ya", "Ａｙａ", "A\u0443a", "\u0410y\u0430"])
def test_item8c_a_look_alike_of_a_known_player_gets_the_question(app, client, name):
    start(client, ["Aya", "Bilal", "Carla", "Dana"])
    response = new_game_form(client, [name, "Elias", "Farah", "Ghada"])
    assert response.status_code == 400
    page = soup(response)
    said = page.select_one("#player_0-error").get_text(" ", strip=True)
    assert said == "Aya is already a player: the same person?"
    assert page.select_one("#player_0")["value"] == name  # the input kept
    assert {i["value"] for i in page.select("input[name=alike_0]")} == {"same", "other"}
    assert query_count(client, "select count(*) as n from games") == 1
    # "the same person": the known player sits there, no new record
    form = {"alike_0": "same", "alike_of_0": page.select_one("input[name=alike_of_0]")["value"]}
    response = new_game_form(client, [name, "Elias", "Farah", "Ghada"], **form)
    assert response.status_code == 303
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    assert seats(app, game)[0] == "Aya"
    assert query_count(client, "select count(*) as n from players where name_key = 'aya'") == 1


def test_item8c_another_player_after_all_keeps_the_name_as_typed(app, client):
    start(client, ["Aya", "Bilal", "Carla", "Dana"])
    response = new_game_form(
        client, ["\u0410ya", "Elias", "Farah", "Ghada"], alike_0="other", alike_of_0="\u0410ya"
    )
    assert response.status_code == 303
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    assert seats(app, game)[0] == "\u0410ya"
    # an answer given for another name does not count: the question again
    response = new_game_form(
        client, ["A\u0443a", "Elias", "Farah", "Ghada"], alike_0="other", alike_of_0="\u0410ya"
    )
    assert response.status_code == 400 and "the same person?" in soup(response).get_text()


@pytest.mark.parametrize("name", ["Aya", "aya", " AYA ", "Ayad", "Ayah", "Äya"])
def test_item8c_the_known_name_itself_or_another_name_asks_nothing(app, client, name):
    start(client, ["Aya", "Bilal", "Carla", "Dana"])
    assert new_game_form(client, [name, "Elias", "Farah", "Ghada"]).status_code == 303


def test_item8c_names_stored_before_with_hidden_characters_lose_them(app, client):
    """The backfill (m008 before it): a name stored before the check shows every character it
    holds afterwards; one that then is another player's name, or shows nothing, is told apart."""
    from scorekeeper.store.backfill import up_to_date

    game = start(client, ["Aya", "Bilal", "Carla", "Dana"])
    legacy = {"Bilal": "Aya\u200b", "Carla": "\u202eLina\u202c", "Dana": "\u200b\u2066\u2069"}
    db = connect(app.config["DATABASE"])
    try:
        with db.atomic():
            for name, stored in legacy.items():  # as the attack stored them
                db.execute(
                    "update players set name = ?, name_key = ? where name = ?",
                    [stored, stored.casefold(), name],
                )
            db.execute("pragma user_version = 0")  # as a database no backfill has read
        up_to_date(db)
        dana = next(
            db.query(
                "select player_id as id from game_players where game_id = ? and seat = 3", [game]
            )
        )
    finally:
        db.close()
    assert seats(app, game) == ["Aya", "Aya (2)", "Lina", f"Player {dana['id']}"]
    assert client.get(f"/games/{game}").status_code == 200
