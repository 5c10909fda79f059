"""No one in where they don't belong: the phone that started a game, one that opened its secret
edit link and one that gave the table PIN keep score; every other phone can only watch."""

from __future__ import annotations

import re
import stat

import pytest
from werkzeug.security import check_password_hash

from scorekeeper import cli
from scorekeeper.store import keys
from scorekeeper.web import create_app
from scorekeeper.web.access import rights as access
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate, migrations

from samples import PAGE, sample_site, samples
from web_helpers import PLAYERS, edit_link, hidden_fields, soup

DIAMONDS = {"diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3", "diamonds_3": "3"}
NEW_GAME = {
    **{f"player_{s}": n for s, n in enumerate(PLAYERS)},
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}


def rows(app, sql, params=()):
    db = connect(app.config["DATABASE"])
    try:
        return list(db.query(sql, params))
    finally:
        db.close()


def snapshot(app):
    """Everything a write could change."""
    return {
        t: rows(app, f"select * from {t} order by 1")
        for t in ("games", "game_players", "players", "deals", "deal_history")
    }


@pytest.fixture
def game(table):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    return game_id


@pytest.fixture
def watcher(app):
    """Another phone on the same Wi-Fi, with its own cookies."""
    return app.test_client()


def pin_game(client, pin="4821"):
    response = client.post("/games/new", data={**NEW_GAME, "pin": pin})
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


# -- who may change a game -----------------------------------------------------------------
def test_the_phone_that_started_the_game_keeps_score(table, client, game):
    page = soup(client.get(f"/games/{game}"))
    assert page.find(id="next") is not None
    assert page.find("a", string=re.compile("Phones")) is not None


@pytest.mark.parametrize(
    "url",
    [
        "/games/{g}/deals/new",
        "/games/{g}/deals/new?contracts=queens",
        "/games/{g}/thrown-in",
        "/games/{g}/deals/1/edit",
        "/games/{g}/deals/1/undo",
        "/games/{g}/share",
    ],
)
def test_a_watching_phone_cannot_open_a_form_that_changes_the_game(watcher, game, url):
    response = watcher.get(url.format(g=game))
    assert response.status_code == 403
    page = soup(response)
    assert "This phone is watching" in page.get_text()
    assert page.find("a", string="Back to the game")["href"] == f"/games/{game}"


def test_a_watching_phone_cannot_post_anything_and_nothing_is_stored(
    app, client, watcher, table, game
):
    entry = hidden_fields(table.open_form(game, "queens"))
    correction = hidden_fields(soup(client.get(f"/games/{game}/deals/1/edit")))
    undo = hidden_fields(soup(client.get(f"/games/{game}/deals/1/undo")))
    thrown = hidden_fields(soup(client.get(f"/games/{game}/thrown-in")))
    before = snapshot(app)
    posts = [
        (
            f"/games/{game}/deals/new",
            {
                **entry,
                **{f"q_{s}_taker": "1" for s in ("spades", "hearts", "diamonds", "clubs")},
                "step": "save",
            },
        ),
        (
            f"/games/{game}/deals/1/edit",
            {
                **correction,
                **DIAMONDS,
                "diamonds_0": "13",
                "diamonds_1": "0",
                "diamonds_2": "0",
                "diamonds_3": "0",
                "step": "save",
            },
        ),
        (f"/games/{game}/deals/1/undo", undo),
        (f"/games/{game}/thrown-in", {**thrown, "reason": "misdeal", "by": "1", "step": "save"}),
        (f"/games/{game}/deals/preview.json", {**entry, "q_spades_taker": "1"}),
    ]
    for url, data in posts:
        response = watcher.post(url, data=data)
        assert response.status_code == 403, url
    assert snapshot(app) == before


def test_a_watching_phone_sees_the_game_but_no_way_to_change_it(watcher, game):
    page = soup(watcher.get(f"/games/{game}"))
    assert page.select_one("table.sheet") is not None
    assert page.find(id="next") is None
    link = page.find("a", string=re.compile("keep score on this phone"))
    assert link["href"] == f"/games/{game}/unlock"
    deal = soup(watcher.get(f"/games/{game}/deals/1"))
    assert deal.find("a", string="Correct") is None and deal.find("a", string="Undo") is None


def test_the_edit_link_lets_another_phone_keep_score(app, watcher, table, game):
    response = watcher.get(edit_link(app, game))
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}"
    assert response.headers["Cache-Control"] == "no-store"
    assert soup(watcher.get(f"/games/{game}")).find(id="next") is not None
    Other = type(table)
    Other(watcher).enter(game, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    assert rows(app, "select count(*) as n from deals")[0]["n"] == 2


@pytest.mark.parametrize("key", ["0" * 32, "not-a-key", "A" * 32, "0" * 31, "%00" * 4])
def test_an_edit_link_that_leads_nowhere_is_a_404(watcher, game, key):
    assert watcher.get(f"/e/{key}").status_code == 404
    assert watcher.get(f"/games/{game}/deals/new").status_code == 403


def test_the_view_link_lets_a_phone_watch_and_nothing_more(app, watcher, game):
    [row] = rows(app, "select view_key from games where id = ?", [game])
    response = watcher.get(f"/v/{row['view_key']}")
    assert response.status_code == 303
    assert watcher.get(response.headers["Location"]).status_code == 200
    assert watcher.get(f"/games/{game}/deals/new").status_code == 403
    assert watcher.get("/v/" + "f" * 32).status_code == 404


def test_the_share_page_shows_both_links_to_a_scorekeeper_only(app, client, game):
    page = soup(client.get(f"/games/{game}/share"))
    [row] = rows(app, "select edit_key, view_key from games where id = ?", [game])
    text = page.get_text(" ")
    assert f"/e/{row['edit_key']}" in text and f"/v/{row['view_key']}" in text


def test_the_qr_codes_address_is_the_view_link(app, client, game):
    [row] = rows(app, "select view_key from games where id = ?", [game])
    with app.test_request_context("/", base_url="http://192.168.1.23:5000"):
        from scorekeeper.web.pages import live
        from scorekeeper.store import storage
        from scorekeeper.web.access.database import get_db

        stored = storage.load_game(get_db(), game)
        assert live.watch_url(stored) == f"/v/{row['view_key']}"
        assert live.watch_url(stored, external=True) == (
            f"http://192.168.1.23:5000/v/{row['view_key']}"
        )


def test_every_game_gets_its_own_keys_whatever_stores_it(app, table):
    from history_helpers import import_docs, simulated_games

    table.new_game()
    import_docs(app, list(simulated_games(2, seed=5)))
    found = rows(app, "select edit_key, view_key from games")
    keys = [k for r in found for k in (r["edit_key"], r["view_key"])]
    assert len(found) == 3 and len(set(keys)) == 6
    assert all(re.fullmatch(r"[0-9a-f]{32}", k) for k in keys)


def test_the_migration_gives_keys_to_games_stored_before_it(tmp_path):
    db = connect(tmp_path / "old.sqlite3")
    migrations.apply(db, stop_before="m003_access")
    db.table("games").insert(
        {
            "title": "Old",
            "rules_json": "{}",
            "first_king": 0,
            "created_at": "2026-01-01",
            "updated_at": "2026-01-01",
        }
    )
    migrate(db)
    [row] = db.query("select edit_key, view_key, pin_hash from games")
    db.close()
    assert re.fullmatch(r"[0-9a-f]{32}", row["edit_key"]) and row["view_key"]
    assert row["edit_key"] != row["view_key"] and row["pin_hash"] is None


def test_a_right_is_bound_to_the_games_key_not_only_its_number(app, client, game):
    """A restored backup or another database can hold another game under the same id."""
    db = connect(app.config["DATABASE"])
    with db.atomic():
        db.execute("update games set edit_key = ? where id = ?", ["ab" * 16, game])
    db.close()
    assert client.get(f"/games/{game}/deals/new").status_code == 403


def test_a_phone_remembers_its_latest_games(app, client):
    with app.test_request_context():
        from scorekeeper.web.access import phonestate

        for game_id in range(1, access.REMEMBERED_GAMES + 6):
            access.grant(game_id, f"{game_id:032x}")
        kept = [i for i, _ in phonestate.get(access.SESSION_KEY)]
    assert kept == list(range(6, access.REMEMBERED_GAMES + 6))


# -- the table PIN -------------------------------------------------------------------------
def test_pin__set_at_new_game_lets_another_phone_keep_score(app, client, watcher):
    game = pin_game(client)
    [row] = rows(app, "select pin_hash from games where id = ?", [game])
    stored = row["pin_hash"]  # a salted hash of the PIN, never the PIN (its digits may occur)
    assert stored and stored != "4821" and ":" in stored.split("$")[0]
    assert check_password_hash(stored, "4821") and not check_password_hash(stored, "4812")
    locked = watcher.get(f"/games/{game}/deals/new?contracts=diamonds")
    page = soup(locked)
    fields = hidden_fields(page, "form[action$=unlock]")
    assert fields["next"] == f"/games/{game}/deals/new?contracts=diamonds"
    response = watcher.post(f"/games/{game}/unlock", data={**fields, "pin": "4821"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game}/deals/new?contracts=diamonds"
    assert watcher.get(response.headers["Location"]).status_code == 200


@pytest.mark.parametrize("pin", ["123", "1234567890123", "12a4", "١٢٣٤", "-123", "12.5", "<b>"])
def test_pin__only_4_to_12_digits_at_new_game(app, client, pin):
    response = client.post("/games/new", data={**NEW_GAME, "pin": pin})
    assert response.status_code == 400
    assert "4 to 12 digits" in soup(response).get_text()
    assert rows(app, "select count(*) as n from games")[0]["n"] == 0


def test_pin__wrong_ones_are_refused_and_counted(watcher, client):
    game = pin_game(client)
    response = watcher.post(f"/games/{game}/unlock", data={"pin": "0000"})
    assert response.status_code == 400
    assert "4 tries left" in soup(response).get_text()
    assert watcher.get(f"/games/{game}/deals/new").status_code == 403


def test_pin__guessing_is_rate_limited_even_after_a_restart(app, client, watcher, tmp_path):
    game = pin_game(client)
    for guess in ("0000", "1111", "2222", "3333", "5555"):
        assert watcher.post(f"/games/{game}/unlock", data={"pin": guess}).status_code == 400
    limited = watcher.post(f"/games/{game}/unlock", data={"pin": "4821"})  # even the right one
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) > 0
    assert "Too many wrong PINs" in soup(limited).get_text()
    assert watcher.get(f"/games/{game}/deals/new").status_code == 403
    again = create_app(
        {
            "TESTING": True,
            "DATABASE": app.config["DATABASE"],
            "INSTANCE_PATH": app.instance_path,
            "WTF_CSRF_ENABLED": False,
        }
    )
    assert (
        again.test_client().post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 429
    )


@pytest.mark.slow
def test_pin__the_limit_is_per_address_and_per_game(client, app):
    game = pin_game(client)
    other_game = pin_game(client, "9999")
    phones = [app.test_client() for _ in range(5)]
    for n, phone in enumerate(phones):
        phone.environ_base["REMOTE_ADDR"] = f"192.168.1.{10 + n}"
    for _ in range(keys.PIN_TRIES):
        assert phones[0].post(f"/games/{game}/unlock", data={"pin": "0000"}).status_code == 400
    assert phones[0].post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 429
    assert phones[0].post(f"/games/{other_game}/unlock", data={"pin": "9999"}).status_code == 303
    assert phones[1].post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 303
    # many addresses together: past the game's own limit, a phone that has failed waits, and
    # one that has not may still give the PIN (strangers cannot lock the table out this way)
    for phone in phones[2:]:
        for _ in range(keys.PIN_TRIES):
            phone.post(f"/games/{game}/unlock", data={"pin": "0000"})
    failed_once = app.test_client()
    failed_once.environ_base["REMOTE_ADDR"] = "192.168.1.98"
    assert failed_once.post(f"/games/{game}/unlock", data={"pin": "0000"}).status_code == 400
    assert failed_once.post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 429
    newcomer = app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "192.168.1.99"
    assert newcomer.post(f"/games/{game}/unlock", data={"pin": "4821"}).status_code == 303


def test_pin__a_game_without_one(watcher, game):
    page = soup(watcher.get(f"/games/{game}/unlock"))
    assert page.find("input", attrs={"name": "pin"}) is None
    assert "edit link" in page.get_text()
    assert watcher.post(f"/games/{game}/unlock", data={"pin": "0000"}).status_code == 400


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/games/1",
        "/games/12",
        "/games/1x",
        "/players/",
        "/\\evil.example",
        "/games/1/../../import",
        "/games/1/./x",
        "javascript:alert(1)",
        "/games/1\n/x",
    ],
)
@pytest.mark.slow
def test_pin__goes_back_to_a_page_of_this_game_only(watcher, client, target):
    game = pin_game(client)
    assert game == 1
    response = watcher.post(f"/games/{game}/unlock", data={"pin": "4821", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/games/1"


# -- a new game's form, sent twice ---------------------------------------------------------
def test_new_game_sent_twice_starts_one_game(app, client):
    fields = hidden_fields(soup(client.get("/games/new")))
    assert len(fields["token"]) >= 16
    first = client.post("/games/new", data={**NEW_GAME, **fields})
    second = client.post("/games/new", data={**NEW_GAME, **fields})
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert "Already started" in soup(client.get(second.headers["Location"])).get_text()
    assert rows(app, "select count(*) as n from games")[0]["n"] == 1


def test_new_game_with_a_malformed_token_is_refused(app, client):
    response = client.post("/games/new", data={**NEW_GAME, "token": "<script>"})
    assert response.status_code == 400
    assert rows(app, "select count(*) as n from games")[0]["n"] == 0


# -- cookies, headers, the secret key ------------------------------------------------------
def test_session_cookie_is_httponly_and_samesite_lax(client):
    response = client.post("/games/new", data=NEW_GAME)
    cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


@pytest.fixture(scope="module")
def sample_world(tmp_path_factory, migrated_database):
    return sample_site(tmp_path_factory.mktemp("headers"), migrated_database)


@pytest.mark.parametrize("sample", samples(PAGE), ids=[s.name for s in samples(PAGE)])
@pytest.mark.slow
def test_headers__policy_frames_referrer_on_every_page(sample_world, sample):
    """Every page's sample (tests/samples.py), and a link that leads nowhere. A wall opened
    by its link sends no referrer at all: its address is its key."""
    app, keeper, seeded = sample_world
    phone = keeper if sample.keeps_score else app.test_client()
    referrer = "no-referrer" if sample.path.startswith("/w/") else "same-origin"
    check_headers(phone.get(sample.url(seeded)), referrer)
    check_headers(phone.get("/e/" + "0" * 32))


def check_headers(response, referrer: str = "same-origin") -> None:
    policy = dict(
        part.strip().split(" ", 1)
        for part in response.headers["Content-Security-Policy"].split(";")
    )
    assert "'unsafe-inline'" not in policy["script-src"] and "script-src" in policy
    assert "'unsafe-inline'" not in policy.get("default-src", "")
    assert policy["frame-ancestors"] == "'none'"
    assert response.headers["Referrer-Policy"] == referrer
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_secret_key__generated_private_and_never_printed(tmp_path, monkeypatch, capsys, caplog):
    instance = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped",
        lambda app, **kwargs: app.logger.info("serving"),
    )
    caplog.set_level("DEBUG")
    assert cli.main(["serve", "--db", str(tmp_path / "x.sqlite3")]) == 0
    key_file = instance / "secret_key"
    key = key_file.read_text().strip()
    assert len(key) >= 64 and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    out = capsys.readouterr()
    assert key not in out.out + out.err and key not in caplog.text
    assert "127.0.0.1" in out.out  # and not on the network without --lan


def test_secret_key__loosened_permissions_are_tightened(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "secret_key").write_text("k" * 64)
    (instance / "secret_key").chmod(0o644)
    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE": str(tmp_path / "a.db")})
    assert app.config["SECRET_KEY"] == "k" * 64
    assert stat.S_IMODE((instance / "secret_key").stat().st_mode) == 0o600


def test_database__created_readable_by_its_owner_only(app):
    from pathlib import Path

    assert stat.S_IMODE(Path(app.config["DATABASE"]).stat().st_mode) == 0o600
