"""Issue 41: the pages a group looks back at (home, history, a night, a past game, the
leaderboard, the roster, a player, a season, the charts) kept and validated under the group's
version tag (``m020_group_version``, ``validators.group_page_cached``): a phone that has the
page as it is gets 304 before any template; another phone gets the kept body; and every write
of the group's games, deals, players, ratings or seasons, whatever path made it, gives every
one of these pages another validator and the page as it is now, never the old one."""

from __future__ import annotations

import http.client
import sqlite3
from pathlib import Path

import pytest

from history_helpers import import_docs, simulated_games
from live_server import Server
from test_validators import templates_rendered, write
from scorekeeper.store import players, schema
from scorekeeper.store.db import connect
from scorekeeper.web.keeping import validators
from web_helpers import be_admin

DIAMONDS = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}
POOL = ("Aya", "Bilal", "Carla", "Dana", "Elias")


def one(app, sql: str, params=()):
    db = connect(app.config["DATABASE"])
    try:
        return db.execute(sql, params).fetchone()[0]
    finally:
        db.close()


@pytest.fixture
def record(app, client):
    """Nine finished games over three nights among five players, and a season over them: the
    addresses of every page that looks back."""
    validators.clear()
    ids = import_docs(app, simulated_games(9, seed=41, pool=POOL))
    night = one(app, "select max(night) from games")
    first = one(app, "select min(night) from games")
    pid = one(app, "select id from players where name = 'Aya'")
    response = client.post(
        "/settings/seasons",
        data={"season-name": "Autumn", "season-first_night": first, "season-last_night": night},
    )
    assert response.status_code == 303
    season = response.headers["Location"]
    return {
        "home": "/",
        "history": "/history/",
        "history, searched": "/history/?player=Ay",
        "night": f"/history/nights/{night}",
        "past game": f"/history/games/{ids[-1]}",
        "leaderboard": "/leaderboard",
        "roster": "/players/",
        "player": f"/players/{pid}",
        "player, dates": f"/players/{pid}?from={first}&to={night}",
        "season": season,
        "contracts chart": f"/charts/players/{pid}/contracts.svg",
        "rating chart": f"/charts/players/{pid}/rating.svg",
        "running chart": f"/charts/games/{ids[-1]}/running.svg",
    }


PAGES = (
    "home",
    "history",
    "history, searched",
    "night",
    "past game",
    "leaderboard",
    "roster",
    "player",
    "player, dates",
    "season",
    "contracts chart",
    "rating chart",
    "running chart",
)


def seen(client, path: str) -> tuple[str, bytes]:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    assert response.headers.get("ETag"), path
    return response.headers["ETag"], response.get_data()


# -- 304 and the kept body ---------------------------------------------------------------------
@pytest.mark.parametrize("page", PAGES)
def test_issue41_1__each_page_answers_304_to_its_etag_with_no_template(app, client, record, page):
    path = record[page]
    etag, body = seen(client, path)
    with templates_rendered(app) as rendered:
        response = client.get(path, headers={"If-None-Match": etag})
    assert response.status_code == 304 and rendered == [] and response.get_data() == b""
    assert response.headers["ETag"] == etag
    assert "Set-Cookie" not in response.headers
    # another phone: the kept body, made by no template, the same bytes as a fresh one
    with templates_rendered(app) as rendered:
        again = app.test_client().get(path)
    assert again.status_code == 200 and rendered == [] and again.get_data() == body
    validators.clear()
    assert app.test_client().get(path).get_data() == body


def test_issue41_1__a_304_reads_one_row_and_no_table_a_page_reads(app, client, record):
    """The validator costs the request one statement: the group's version tag by its key."""
    from scorekeeper.web.access.database import get_db

    path = record["player"]
    etag, _ = seen(client, path)
    with app.app_context():
        conn = get_db().conn  # this thread's connection, the one the requests use
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
        [statement] = statements
        assert "from group_version" in statement and "from phone_states" in statement
        statements.clear()
        assert app.test_client().get(path).status_code == 200  # the kept body: no more
        assert len(statements) == 1, statements
    finally:
        conn.set_trace_callback(None)


def test_issue41_1__the_charts_keep_their_own_policy_when_kept(app, client, record):
    for page in ("contracts chart", "rating chart", "running chart"):
        first = client.get(record[page])
        kept = app.test_client().get(record[page])
        policy = kept.headers["Content-Security-Policy"]
        assert policy == first.headers["Content-Security-Policy"] and "default-src 'none'" in policy


# -- every kind of write -----------------------------------------------------------------------
def change_deal(app, client, table, record):
    game = table.new_game(names=POOL[:4])
    table.enter(game, DIAMONDS)


def change_rename(app, client, table, record):
    db = connect(app.config["DATABASE"])
    try:
        players.rename_player(db, one(app, "select id from players where name = 'Aya'"), "Aya N.")
    finally:
        db.close()


def change_season(app, client, table, record):
    response = client.post(
        "/settings/seasons",
        data={
            "season-name": "November",
            "season-first_night": "2026-11-01",
            "season-last_night": "2026-11-30",
        },
    )
    assert response.status_code == 303


def change_ratings_off(app, client, table, record):
    assert client.post("/settings/ratings", data={"ratings": "off", "next": "/"}).status_code == 303


def change_another_path(app, client, table, record):
    write(app, "update games set title = 'The rematch' where id = (select max(id) from games)")


#: The pages keyed by their game's version tag (``whole_page_cached``), not the group's.
BY_THE_GAME = ("running chart",)
CHANGES = [change_deal, change_rename, change_season, change_ratings_off, change_another_path]


@pytest.mark.slow
@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__[len("change_") :])
def test_issue41_2__a_write_of_each_kind_changes_every_pages_etag(
    app, client, table, record, change
):
    before = {page: seen(client, record[page]) for page in PAGES}
    change(app, client, table, record)
    client.get("/")  # a message the change left for the next page is shown there
    for page, (etag, body) in before.items():
        path = record[page]
        response = client.get(path, headers={"If-None-Match": etag})
        if response.status_code == 404:  # the rating chart, once the ratings are off
            assert change is change_ratings_off and page == "rating chart"
            continue
        if response.status_code == 304:  # keyed by its game alone, which did not change
            assert page in BY_THE_GAME and change is not change_another_path, page
            validators.clear()
            assert client.get(path).get_data() == body, page
            continue
        assert response.status_code == 200, (page, change.__name__)
        assert response.headers.get("ETag") != etag, (page, change.__name__)
        validators.clear()
        fresh = client.get(path)
        assert response.get_data() == fresh.get_data(), (page, change.__name__)


def test_issue41_2__a_rename_is_shown_at_once_on_every_page_that_names_the_player(
    app, client, table, record
):
    for page in ("home", "history", "leaderboard", "roster", "player", "season"):
        assert "Aya N." not in seen(client, record[page])[1].decode()
    change_rename(app, client, table, record)
    for page in ("home", "history", "leaderboard", "roster", "player", "season"):
        assert "Aya N." in client.get(record[page]).get_data(as_text=True), page


def test_issue41_2__a_season_removed_is_a_404_not_the_page_kept(app, client, record):
    path = record["season"]
    etag, _ = seen(client, path)
    assert client.post(f"{path}/remove").status_code == 303
    client.get("/")  # the message shown
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 404
    assert app.test_client().get(path).status_code == 404


def test_issue41_2__every_table_of_the_group_draws_the_version_tag_again(app, record):
    """Each insert, update and delete of a row of the tables the pages read, by any path."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        triggers = {
            r[0] for r in conn.execute("select name from sqlite_master where type = 'trigger'")
        }
        for table in schema.GROUP_VERSION_TABLES:
            for event in ("insert", "update", "delete"):
                assert f"{table}_group_version_{event}" in triggers
        tag = conn.execute("select tag from group_version").fetchone()[0]
        with conn:
            conn.execute("update players set name = name")
        assert conn.execute("select tag from group_version").fetchone()[0] != tag
        tag = conn.execute("select tag from group_version").fetchone()[0]
        with conn:
            conn.execute("delete from seasons")
        assert conn.execute("select tag from group_version").fetchone()[0] != tag
        tag = conn.execute("select tag from group_version").fetchone()[0]
        with conn:
            conn.execute("insert into settings (key, value) values ('x41', '1')")
        assert conn.execute("select tag from group_version").fetchone()[0] != tag
    finally:
        conn.close()


def test_issue41_2__a_page_that_reads_a_table_outside_the_tag_is_neither_kept_nor_validated(
    app, client, record, monkeypatch
):
    monkeypatch.setattr(validators, "GROUP_TABLES", validators.GROUP_TABLES - {"seasons"})
    for _ in range(2):
        with templates_rendered(app) as rendered:
            response = client.get(record["season"])
        assert response.status_code == 200 and "ETag" not in response.headers and rendered


# -- rights and ways of reading ----------------------------------------------------------------
def test_issue41_3__the_admin_and_a_member_each_get_their_own_player_page(app, record):
    member, admin = app.test_client(), app.test_client()
    be_admin(admin, app)
    path = record["player"]
    admin.get(path)  # the first page after the admin link renews the session
    member_etag, member_body = seen(member, path)
    admin_etag, admin_body = seen(admin, path)
    assert member_etag != admin_etag
    assert b"/rename" in admin_body and b"/rename" not in member_body
    assert member.get(path, headers={"If-None-Match": admin_etag}).status_code == 200
    assert admin.get(path, headers={"If-None-Match": admin_etag}).status_code == 304
    assert app.test_client().get(path).get_data() == member_body


def test_issue41_3__the_arabic_page_is_another_page(app, client, record):
    etag, body = seen(client, record["history"])
    arabic = client.get(record["history"], headers={"Accept-Language": "ar"})
    assert arabic.status_code == 200 and arabic.headers["ETag"] != etag
    assert arabic.get_data() != body and 'dir="rtl"' in arabic.get_data(as_text=True)


def test_issue41_3__a_flash_message_is_shown_once_and_never_kept(app, client, record):
    etag, _ = seen(client, "/")
    assert client.post("/settings/ratings", data={"ratings": "off", "next": "/"}).status_code == 303
    waiting = client.get("/", headers={"If-None-Match": etag})  # the message is waiting
    assert waiting.status_code == 200 and "ETag" not in waiting.headers
    assert "Ratings" in waiting.get_data(as_text=True)
    after = client.get("/")  # shown once; the page after it is kept again
    assert after.headers["ETag"] and after.get_data() != waiting.get_data()


# -- through the real server -------------------------------------------------------------------
@pytest.mark.slow
def test_issue41_4__waitress_answers_304_and_a_write_gives_the_new_page(app, tmp_path, record):
    database = app.config["DATABASE"]
    server = Server(Path(database), tmp_path / "live-instance").start()
    try:

        def get(path: str, etag: str | None = None) -> http.client.HTTPResponse:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("GET", path, headers={"If-None-Match": etag} if etag else {})
            response = conn.getresponse()
            response.body = response.read()  # type: ignore[attr-defined]
            conn.close()
            return response

        for page in PAGES:
            first = get(record[page])
            assert first.status == 200 and first.getheader("ETag"), page
            assert get(record[page], first.getheader("ETag")).status == 304, page
        first = get(record["leaderboard"])
        change_another_path(app, None, None, record)
        change_rename(app, None, None, record)
        after = get(record["leaderboard"], first.getheader("ETag"))
        assert after.status == 200 and b"Aya N." in after.body
    finally:
        server.stop()
    assert "Traceback" not in server.output()


# -- a box of many groups ----------------------------------------------------------------------
def test_issue41_5__a_groups_etag_opens_nothing_to_a_stranger_nor_in_another_group(tmp_path):
    from group_helpers import InGroup, groups_app, start_group

    app = groups_app(tmp_path)
    a, _, starter_a = start_group(app, "Group A")
    b, _, starter_b = start_group(app, "Group B", address="127.0.0.2")
    member_a, member_b = InGroup(starter_a, a), InGroup(starter_b, b)
    for page in ("/history/", "/leaderboard", "/"):
        response = member_a.get(page)
        assert response.status_code == 200 and response.headers["ETag"], page
        etag = response.headers["ETag"]
        assert member_a.get(page, headers={"If-None-Match": etag}).status_code == 304
        # the same page of another group, with A's tag: B's own page, never a 304
        other = member_b.get(page, headers={"If-None-Match": etag})
        assert other.status_code == 200 and other.headers["ETag"] != etag, page
        # a phone that is no member of A: refused as without the tag, never a 304
        stranger = InGroup(app.test_client(), a)
        refused = stranger.get(page, headers={"If-None-Match": etag})
        assert refused.status_code not in (200, 304), (page, refused.status_code)
        assert refused.status_code == stranger.get(page).status_code
        assert b"Group A" not in refused.get_data()
