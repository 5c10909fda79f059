"""The game page, the scoreboard and the state document answered from what is already known
(``web/keeping/validators.py``): a phone that has the page of the game as it is gets 304 before any
template or session write; a second phone gets the kept body; and every change of the game, of
how the phone reads or of its right to keep score gives another validator and another body."""

from __future__ import annotations

import re

from contextlib import contextmanager

import pytest
from flask import template_rendered
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.store import players
from scorekeeper.store.db import connect
from scorekeeper.web.access import rights
from scorekeeper.web.keeping import validators

from web_helpers import edit_link, hidden_fields, soup

DIAMONDS = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}
DIAMONDS_AGAIN = {"king": 0, "contracts": ["diamonds"], "diamonds": [1, 6, 3, 3]}
COLLECTIONS = {"king": 0, "contracts": ["collections"], "tricks": [3, 4, 3, 3]}
KING_OF_HEARTS = {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}}
NEXT_DEALS = [DIAMONDS, COLLECTIONS, KING_OF_HEARTS]
ENTRY = "/games/{}/deals/new?contracts=collections&king=0"
PAGES = ("/games/{}", "/games/{}/watch", "/games/{}/state.json")


@contextmanager
def templates_rendered(app):
    names: list[str] = []

    def note(sender, template, context, **extra):
        names.append(template.name)

    template_rendered.connect(note, app)
    try:
        yield names
    finally:
        template_rendered.disconnect(note, app)


def write(app, sql: str, params=()) -> None:
    """A write by another path than the pages (the command line, another process)."""
    db = connect(app.config["DATABASE"])
    try:
        with db.conn:
            db.conn.execute(sql, params)
    finally:
        db.close()


def seen(client, path: str) -> tuple[str, bytes]:
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    assert response.headers["ETag"], path
    return response.headers["ETag"], response.get_data()


@pytest.fixture
def game(app, client, table):
    validators.clear()
    game_id = table.new_game()
    table.enter(game_id, DIAMONDS)
    client.get("/")  # the page after the save shows its message
    return game_id


# -- 304 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", PAGES)
def test_conditional_get__304_with_no_template_and_no_cookie(app, client, game, page):
    path = page.format(game)
    etag, _ = seen(client, path)
    with templates_rendered(app) as rendered:
        response = client.get(path, headers={"If-None-Match": etag})
    assert response.status_code == 304 and rendered == []
    assert response.get_data() == b"" and "Set-Cookie" not in response.headers
    assert response.headers["ETag"] == etag


@pytest.mark.parametrize("page", PAGES)
def test_conditional_get__one_query_by_the_games_id(app, client, game, page):
    from scorekeeper.web.access.database import get_db

    path = page.format(game)
    etag, _ = seen(client, path)
    with app.app_context():
        conn = get_db().conn  # this thread's connection, the one the requests use
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
        from scorekeeper.store.ratings import VERSION_SQL

        # the game's row by its id, and within it the ratings' version by the settings' key
        # and the phone's state by its row's key
        [statement] = statements
        assert re.fullmatch(
            re.escape("select version_tag, edit_key, pin_hash, %s, " % VERSION_SQL)
            + r"\(select seen_on \|\| ' ' \|\| state from phone_states where phone = '[0-9a-f]{64}'\) "
            + re.escape("from games where id = %d" % game),
            statement,
        ), statement
        statements.clear()
        client.get(path)  # the kept body: no more than that either
        assert len(statements) == 1
    finally:
        conn.set_trace_callback(None)


def test_conditional_get__a_tag_of_another_game_or_none_is_a_full_page(app, client, table, game):
    other = table.new_game()
    table.enter(other, DIAMONDS)  # before its first deal a game page shows ratings, unkept
    client.get("/")  # its message shown
    etag, _ = seen(client, f"/games/{other}")
    response = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag
    assert client.get(f"/games/{game}", headers={"If-None-Match": '"nonsense"'}).status_code == 200


def test_no_game__404_whatever_the_validator(client, game):
    etag, _ = seen(client, f"/games/{game}")
    for page in PAGES:
        assert (
            client.get(page.format(game + 50), headers={"If-None-Match": etag}).status_code == 404
        )


# -- the kept body -------------------------------------------------------------------------
@pytest.mark.parametrize("page", PAGES)
def test_kept_body__byte_identical_to_a_fresh_render(app, client, game, page):
    path = page.format(game)
    first = client.get(path).get_data()
    with templates_rendered(app) as rendered:
        kept = client.get(path)
    assert rendered == [] and kept.get_data() == first  # from the page kept
    validators.clear()
    assert client.get(path).get_data() == first  # made again: the same bytes


def test_kept_body__a_second_phone_without_rights_costs_no_template(app, client, game):
    watcher = app.test_client()
    first = watcher.get(f"/games/{game}")
    with templates_rendered(app) as rendered:
        again = app.test_client().get(f"/games/{game}")
    assert rendered == [] and again.get_data() == first.get_data()
    assert again.headers["ETag"] == first.headers["ETag"]


# -- every change of the game ----------------------------------------------------------------
def change_save(app, client, table, game):
    table.enter(game, COLLECTIONS)


def change_correction(app, client, table, game):
    assert table.correct(game, 1, DIAMONDS_AGAIN).status_code == 303


def change_undo(app, client, table, game):
    assert table.undo(game, 1).status_code == 303


def change_rename(app, client, table, game):
    db = connect(app.config["DATABASE"])
    try:
        [row] = db.query("select id from players where name = 'Bilal'")
        players.rename_player(db, row["id"], "Bilal Haddad")
    finally:
        db.close()


def change_merge(app, client, table, game):
    other = table.new_game(names=("Aya", "Bilal", "Carla", "Danah"))
    assert other
    db = connect(app.config["DATABASE"])
    try:
        ids = {r["name"]: r["id"] for r in db.query("select id, name from players")}
        players.merge_players(db, ids["Danah"], ids["Dana"])  # Dana's games are Danah's
    finally:
        db.close()


def change_seat_name(app, client, table, game):
    assert client.post(f"/games/{game}/seats/1/name", data={"name": "Bilel"}).status_code == 303


def change_pin(app, client, table, game):
    assert client.post(f"/games/{game}/pin", data={"pin": "975310"}).status_code == 303


def change_edit_key(app, client, table, game):
    form = hidden_fields(soup(client.get(f"/games/{game}/share")), "#take-back form")
    assert client.post(f"/games/{game}/edit-key", data=form).status_code == 303


def change_title(app, client, table, game):
    write(app, "update games set title = ? where id = ?", ["Friday, the rematch", game])


CHANGES = [
    change_save,
    change_correction,
    change_undo,
    change_rename,
    change_merge,
    change_seat_name,
    change_pin,
    change_edit_key,
    change_title,
]


@pytest.mark.slow
@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__[len("change_") :])
def test_a_changed_game__another_validator_and_the_new_body(app, client, table, game, change):
    before = {page: seen(client, page.format(game)) for page in PAGES}
    change(app, client, table, game)
    client.get("/")  # a message the change left for the next page is shown there
    for page, (etag, body) in before.items():
        path = page.format(game)
        response = client.get(path, headers={"If-None-Match": etag})
        assert response.status_code == 200, (path, change.__name__)
        # a new validator, or none where the page shows ratings (an undo back to no deal)
        assert response.headers.get("ETag") != etag
        validators.clear()
        fresh = client.get(path)
        assert response.get_data() == fresh.get_data()  # what the game is now, not the old


def test_a_changed_game__the_new_body_shows_the_change(app, client, table, game):
    seen(client, f"/games/{game}")
    change_title(app, client, table, game)
    assert "Friday, the rematch" in soup(client.get(f"/games/{game}")).get_text()
    change_rename(app, client, table, game)
    assert "Bilal Haddad" in soup(client.get(f"/games/{game}/watch")).get_text()


def test_other_games_keep_their_validator(app, client, table, game):
    other = table.new_game(names=("Elias", "Farah", "Ghassan", "Hala"))
    table.enter(other, DIAMONDS)  # before its first deal a game page shows ratings, unkept
    client.get("/")
    etag, _ = seen(client, f"/games/{other}")
    table.enter(game, COLLECTIONS)
    client.get("/")  # its message shown
    assert client.get(f"/games/{other}", headers={"If-None-Match": etag}).status_code == 304


# -- how the phone reads --------------------------------------------------------------------
def set_words(client, **words):
    page = soup(client.get("/settings?next=/"))
    form = page.select_one("#words form")
    data = {i["name"]: i.get("value", "") for i in form.select("input")}
    data.update(words)
    assert client.post(form["action"], data=data).status_code == 303


READINGS = {
    "language": lambda client: client.set_cookie("lang", "ar"),
    "digits": lambda client: client.set_cookie("digits", "arabic"),
    "words": lambda client: set_words(client, diamonds="Dinari"),
}


@pytest.mark.slow
@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("page", PAGES[:2])
def test_a_way_of_reading__another_validator_and_body(app, client, game, reading, page):
    path = page.format(game)
    etag, body = seen(client, path)
    READINGS[reading](client)
    client.get("/")  # the settings' message shown
    response = client.get(path, headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag
    assert response.get_data() != body


def test_the_state_document_is_the_same_in_every_language(client, game):
    etag, body = seen(client, f"/games/{game}/state.json")
    client.set_cookie("lang", "ar")
    response = client.get(f"/games/{game}/state.json", headers={"If-None-Match": etag})
    assert response.status_code == 304


def test_a_restart__pages_made_again(app, client, game, tmp_path):
    from scorekeeper.web import create_app

    etag, body = seen(client, f"/games/{game}")
    again = create_app(
        {
            **{k: app.config[k] for k in ("DATABASE", "WTF_CSRF_ENABLED")},
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    response = again.test_client().get(f"/games/{game}", headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag


def test_a_restore__every_page_made_again(app, client, game, tmp_path):
    from scorekeeper.store.backup import backup_database, restore_database

    before = {page: seen(client, page.format(game)) for page in PAGES}
    backup_database(app.config["DATABASE"], tmp_path / "night.sqlite3")
    restore_database(tmp_path / "night.sqlite3", app.config["DATABASE"])
    for page, (etag, body) in before.items():
        response = client.get(page.format(game), headers={"If-None-Match": etag})
        assert response.status_code == 200 and response.headers["ETag"] != etag


# -- rights ----------------------------------------------------------------------------------
def test_rights__a_scorer_and_a_watcher_get_their_own_page(app, client, game):
    scorer_tag, scorer_page = seen(client, f"/games/{game}")
    watcher = app.test_client()
    watcher_tag, watcher_page = seen(watcher, f"/games/{game}")
    assert scorer_tag != watcher_tag
    scorer, watching = soup_of(scorer_page), soup_of(watcher_page)
    assert scorer.select_one("#next") is not None
    assert watching.select_one("#next") is None
    assert watching.select_one(f"a[href='/games/{game}/unlock']") is not None
    assert scorer.select_one(f"a[href='/games/{game}/share']") is not None
    # neither is answered with the other's page
    assert watcher.get(f"/games/{game}", headers={"If-None-Match": scorer_tag}).status_code == 200
    assert client.get(f"/games/{game}", headers={"If-None-Match": watcher_tag}).status_code == 200


def test_rights__taken_back_by_a_new_edit_key_the_page_is_a_watchers(app, client, game):
    other = app.test_client()
    assert other.get(edit_link(app, game)).status_code == 303
    other.get("/")  # its message shown
    etag, page = seen(other, f"/games/{game}")
    assert soup_of(page).select_one("#next") is not None
    change_edit_key(app, client, None, game)
    response = other.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert soup(response).select_one("#next") is None


def soup_of(body: bytes):
    from bs4 import BeautifulSoup

    return BeautifulSoup(body.decode(), "html.parser")


# -- what is never kept ------------------------------------------------------------------------
def test_a_flash_message__shown_once_and_never_kept(app, client, table, game):
    etag, _ = seen(client, f"/games/{game}")
    change_seat_name(app, client, table, game)  # leaves "fixed" for the next page
    with_message = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert with_message.status_code == 200 and "ETag" not in with_message.headers
    assert soup(with_message).select_one(".flash, [role=status], [role=alert]") is not None
    without = client.get(f"/games/{game}")
    assert without.headers["ETag"] and without.get_data() != with_message.get_data()
    assert soup(without).select_one(".flash, [role=status], [role=alert]") is None


def test_an_unkeyed_read__neither_kept_nor_validated(app, client, game, monkeypatch):
    """A helper that reads a table the key does not cover makes the page unkept by itself,
    without marking anything (the safe way is the default)."""
    from scorekeeper.web.access.database import get_db
    from scorekeeper.web.pages import games

    real = games.game_context

    def reads_club_nights(stored):
        get_db().execute("select count(*) from club_nights").fetchone()
        return real(stored)

    monkeypatch.setattr(games, "game_context", reads_club_nights)
    first = client.get(f"/games/{game}")
    assert first.status_code == 200 and "ETag" not in first.headers
    with templates_rendered(app) as rendered:
        assert client.get(f"/games/{game}").status_code == 200
    assert "game.html" in rendered  # made again, not kept
    monkeypatch.setattr(games, "game_context", real)
    assert client.get(f"/games/{game}").headers["ETag"]


def test_a_page_that_reads_which_phone_this_is__neither_kept_nor_validated(
    app, client, game, monkeypatch
):
    """Confirmation by the other side: what a page shows may depend on which phone reads it
    (who entered a deal, who it says it is), which no key holds; reading it leaves the page
    unkept, without a database read or a session write to give it away."""
    from scorekeeper.web.access import phones
    from scorekeeper.web.pages import games

    real = games.game_context

    def asks_who_this_is(stored):
        phones.phone_id()
        return real(stored)

    monkeypatch.setattr(games, "game_context", asks_who_this_is)
    first = client.get(f"/games/{game}")
    assert first.status_code == 200 and "ETag" not in first.headers
    with templates_rendered(app) as rendered:
        assert client.get(f"/games/{game}").status_code == 200
    assert "game.html" in rendered


def test_a_page_that_does_not_opt_in__never_kept(app, client, game):
    """Only a view under ``whole_page_cached`` is kept: the game's history is made each time."""
    for _ in range(2):
        with templates_rendered(app) as rendered:
            response = client.get(f"/games/{game}/history")
        assert response.status_code == 200 and "ETag" not in response.headers
        assert rendered


# -- the session cookie -----------------------------------------------------------------------
def test_session__not_written_on_a_plain_get_but_rights_kept(app, client, game):
    for path in (f"/games/{game}", f"/games/{game}/watch", "/", f"/games/{game}/history"):
        response = client.get(path)
        assert response.status_code == 200 and "Set-Cookie" not in response.headers, path
    assert client.get(ENTRY.format(game)).status_code == 200


def test_session__renewed_when_a_day_old_and_the_rights_survive(app, client, game, monkeypatch):
    now = [rights.time.time()]
    monkeypatch.setattr(rights.time, "time", lambda: now[0])
    client.get("/")  # stamped when the game was started; a fresh stamp is not written again
    assert "Set-Cookie" not in client.get(f"/games/{game}").headers
    now[0] += rights.SESSION_RENEWAL - 60
    assert "Set-Cookie" not in client.get(f"/games/{game}").headers
    now[0] += 120
    renewed = client.get(f"/games/{game}")
    cookie = renewed.headers.get("Set-Cookie", "")
    assert cookie.startswith("session=") and "Expires=" in cookie
    assert "Set-Cookie" not in client.get(f"/games/{game}").headers  # once a day
    assert client.get(ENTRY.format(game)).status_code == 200


def test_session__a_watcher_gets_no_cookie_at_all(app, game):
    watcher = app.test_client()
    for page in PAGES:
        assert "Set-Cookie" not in watcher.get(page.format(game)).headers


# -- a property: the validator follows the game and nothing else -------------------------------
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(st.sampled_from(["save", "title", "reload", "language"]), min_size=1, max_size=6)
)
def test_property__equal_validators_mean_equal_pages(app, client, table, steps):
    validators.clear()
    game = table.new_game()
    table.enter(game, NEXT_DEALS[0])  # before its first deal the page shows ratings, unkept
    client.get("/")
    client.delete_cookie("lang")
    seen_pages: dict[str, bytes] = {}
    deals = iter(NEXT_DEALS[1:])
    for n, step in enumerate(steps):
        if step == "save" and (deal := next(deals, None)) is not None:
            table.enter(game, deal)
            client.get("/")  # its message shown
        elif step == "title":
            write(app, "update games set title = ? where id = ?", [f"Night {n}", game])
        elif step == "language":
            client.set_cookie("lang", "ar" if n % 2 else "en")
        response = client.get(f"/games/{game}")
        validators.clear()
        fresh = client.get(f"/games/{game}").get_data()
        etag = response.headers["ETag"]
        assert response.get_data() == fresh
        assert seen_pages.setdefault(etag, fresh) == fresh


# -- issue 27, item 6: the ratings' version in the game page's key -------------------------------
def finished_games(app, count: int, seed: int, last_night: str = "2026-11-20") -> list[int]:
    from history_helpers import import_docs, simulated_games

    return import_docs(
        app,
        simulated_games(
            count, seed=seed, last_night=last_night, pool=("Aya", "Bilal", "Carla", "Dana", "Elias")
        ),
    )


def rating_changes_shown(response) -> list[str]:
    return [
        item.get_text(" ", strip=True) for item in soup(response).select("#rating-changes .change")
    ]


def test_item6_a_finished_games_page_has_an_etag_and_answers_304(app, client):
    validators.clear()
    last = finished_games(app, 3, seed=4)[-1]
    etag, body = seen(client, f"/games/{last}")
    assert b'id="rating-changes"' in body
    assert client.get(f"/games/{last}", headers={"If-None-Match": etag}).status_code == 304
    with templates_rendered(app) as names:
        assert client.get(f"/games/{last}").get_data() == body  # kept: no template
    assert names == []


def test_item6_ratings_changed_by_another_game__another_etag_and_the_new_changes(app, client):
    from scorekeeper.store import ratings
    from scorekeeper.store.db import connect

    validators.clear()
    last = finished_games(app, 3, seed=4)[-1]
    etag, body = seen(client, f"/games/{last}")
    # a game played earlier, imported now: every game is rated again, this one's changes too
    finished_games(app, 2, seed=8, last_night="2026-10-01")
    response = client.get(f"/games/{last}", headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag
    db = connect(app.config["DATABASE"])
    try:
        changes = ratings.changes_in(db, last)
    finally:
        db.close()
    assert len(rating_changes_shown(response)) == 4 and response.get_data() != body
    validators.clear()
    assert client.get(f"/games/{last}").get_data() == response.get_data()  # as made now
    assert len(changes) == 4


def test_item6_ratings_turned_off__another_etag_and_no_ratings_shown(app, client):
    validators.clear()
    last = finished_games(app, 3, seed=4)[-1]
    etag, _ = seen(client, f"/games/{last}")
    response = client.post("/settings/ratings", data={"ratings": "off", "next": "/"})
    assert response.status_code == 303
    client.get("/")  # the message "Ratings are off" shown
    response = client.get(f"/games/{last}", headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag
    assert rating_changes_shown(response) == []


def test_item6_a_game_before_its_first_deal_is_kept_and_its_chances_follow_the_ratings(
    app, client, table
):
    validators.clear()
    finished_games(app, 3, seed=4)
    fresh = table.new_game(("Aya", "Bilal", "Carla", "Dana"), played_on="2026-12-01")
    watcher = app.test_client()  # the scorer's page holds a form (who deals first)
    etag, body = seen(watcher, f"/games/{fresh}")
    assert b'id="chances"' in body
    assert watcher.get(f"/games/{fresh}", headers={"If-None-Match": etag}).status_code == 304
    finished_games(app, 1, seed=12, last_night="2026-11-25")  # one more game rated
    response = watcher.get(f"/games/{fresh}", headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag


def test_item6_a_page_that_shows_ratings_without_their_version_in_its_key_is_not_kept(
    app, client, game, monkeypatch
):
    """The guard beside the key: a page that reads the ratings under a key without their
    version (any page but the game page) is neither kept nor validated."""
    from scorekeeper.web.making import ratingview
    from scorekeeper.web.pages import live

    real = live.game_context

    def reads_ratings(stored):
        ratingview.on()
        return real(stored)

    monkeypatch.setattr(live, "game_context", reads_ratings)
    validators.clear()
    response = client.get(f"/games/{game}/watch")
    assert response.status_code == 200 and "ETag" not in response.headers
    assert client.get(f"/games/{game}").headers["ETag"]
