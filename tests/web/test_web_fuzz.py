"""Bad input gets a clear answer, never a 500, and a refused request stores nothing.

Every route of the app (taken from its URL map, so a new route is covered too) gets malformed
path values, query values and form values: missing, empty, wrong type, negative, fractional,
huge numbers, out-of-range seats, unicode and control characters, 1 MB, ids that do not exist
and ids of another game. Hypothesis then fuzzes the two forms that write the most: the deal entry
and the new game.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.web import create_app
from scorekeeper.store.db import connect

from web_helpers import COMPLEX, Table, hidden_fields, soup

MB = 1024 * 1024
#: Missing (empty), negative, an out-of-range seat, fractional, huge, not a number, control
#: characters, markup with quotes and a right-to-left override, other digits, long.
BAD_VALUES = [
    "",
    "-1",
    "4",
    "1.5",
    "9" * 30,
    "x",
    "\x00\x1b[31m",
    "\u202e<script>alert('x')</script>\"",
    "٣",
    "a" * 5000,
]
#: A game or deal that does not exist, another game's, beyond SQLite's integers.
PATH_INTS = ["0", "2", "999", "9" * 30]
PATH_TEXT = ["%00", "..%2F..%2Fetc%2Fpasswd", "2026-13-45", "9" * 3000, "%E2%80%AE<script>"]
QUERY_NAMES = [
    "king",
    "contracts",
    "from",
    "player",
    "before",
    "sort",
    "other",
    "download",
    "next",
    "to",
    "preset",
    "number",
]
#: Every name any form of the app posts.
FORM_NAMES = [
    "csrf_token",
    "token",
    "king",
    "contracts",
    "number",
    "version",
    "deal",
    "step",
    "reason",
    "by",
    "kh_taker",
    "kh_doubled_by",
    "kh_led_by",
    "q_spades_taker",
    "q_hearts_doubled_by",
    *(f"diamonds_{s}" for s in range(4)),
    *(f"tricks_{s}" for s in range(4)),
    *(f"trex_{p}" for p in range(1, 5)),
    *(f"player_{s}" for s in range(4)),
    "first_king",
    "preset",
    "title",
    "played_on",
    "pin",
    "next",
    "name",
    "other",
    "deal_id",
    "file",
    "doubling",
    "combining",
    "fixed_1",
    "sweep_tricks",
]
ANSWERS = {200, 303, 304, 400, 403, 404, 405, 409, 413, 429}


pytestmark = pytest.mark.slow  # hostile values sent to every route (over a minute)


class Watch:
    """Whether anything was written to the database since the last look (PRAGMA data_version
    changes when another connection commits)."""

    def __init__(self, app):
        self.db = connect(app.config["DATABASE"])
        self.version = self.read()

    def close(self) -> None:
        self.db.close()

    def read(self) -> int:
        return self.db.execute("PRAGMA data_version").fetchone()[0]

    def changed(self) -> bool:
        now = self.read()
        changed, self.version = now != self.version, now
        return changed


def make_site(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "fuzz.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    table = Table(client)
    first = table.new_game()
    table.enter(first, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    table.enter(first, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    second = table.new_game(
        ["Rami", "Nour", "Sami", "Hala"],
        preset="custom",
        doubling="y",
        self_capture="leader-credit",
        combining="complex",
    )
    table.enter(second, {"king": 0, "contracts": ["trex"], "trex_order": [3, 2, 1, 0]})
    return app, client, table


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return make_site(tmp_path_factory.mktemp("fuzz"))


def assert_answered(response, what):
    assert response.status_code in ANSWERS, (what, response.status_code)
    if response.status_code >= 400 and response.mimetype == "text/html":
        page = soup(response)
        assert page.find("h1") is not None and page.get_text(strip=True), what


def routes(app, method):
    return sorted({r.rule for r in app.url_map.iter_rules() if method in r.methods})


def fill(rule: str, game: str = "1", number: str = "1", text: str = "x") -> str:
    url = rule.replace("<int:game_id>", game).replace("<int:number>", number)
    url = re.sub(r"<int:\w+>", "1", url)
    return re.sub(r"<(?:path:)?\w+>", text, url)


def test_every_get_route__malformed_paths_and_queries(site):
    app, client, _ = site
    watch = Watch(app)
    for rule in routes(app, "GET"):
        urls = {fill(rule)}
        if "game_id" in rule:
            urls |= {fill(rule, game=v) for v in PATH_INTS}
        if "number" in rule:
            urls |= {fill(rule, number=v) for v in PATH_INTS}
        if re.search(r"<(path:)?\w+>", re.sub(r"<int:\w+>", "", rule)):
            urls |= {fill(rule, text=v) for v in PATH_TEXT}
        for url in sorted(urls):
            assert_answered(client.get(url), url)
        # a PDF takes half a second to draw: fewer values there
        values = BAD_VALUES[::4] if rule.endswith(".pdf") else BAD_VALUES
        for value in values:
            response = client.get(fill(rule), query_string={n: value for n in QUERY_NAMES})
            assert_answered(response, (rule, value))
    for rule in (
        "/",
        "/games/new",
        "/history/",
        "/players/<int:pid>",
        "/games/<int:game_id>/deals/new",
    ):
        huge = client.get(fill(rule), query_string={"from": "9" * MB})
        assert_answered(huge, (rule, "1 MB"))
    assert not watch.changed(), "a GET wrote to the database"
    watch.close()


@pytest.mark.parametrize("who", ["scorekeeper", "watcher"])
def test_every_post_route__malformed_forms_store_nothing(site, who):
    app, client, _ = site
    phone = client if who == "scorekeeper" else app.test_client()
    watch = Watch(app)
    for rule in routes(app, "POST"):
        for url in (fill(rule), fill(rule, game="2", number="9"), fill(rule, game="999")):
            bodies = [
                {},
                *({n: v for n in FORM_NAMES} for v in BAD_VALUES),
                {"file": "x" * MB},
                {"title": "x" * MB},
            ]
            for body in bodies:
                response = phone.post(url, data=body)
                assert_answered(response, (url, sorted(body.items())[:1]))
                if response.status_code != 303:
                    assert not watch.changed(), (url, response.status_code)
                watch.changed()
    watch.close()


def test_ids_of_another_game_are_not_found(site):
    app, client, table = site
    db = connect(app.config["DATABASE"])
    [other] = db.query("select id from deals where game_id = 2 limit 1")
    db.close()
    watch = Watch(app)
    undo = hidden_fields(soup(client.get("/games/1/deals/1/undo")))
    response = client.post("/games/1/deals/1/undo", data={**undo, "deal_id": str(other["id"])})
    assert response.status_code == 404
    assert "not in this game" in soup(response).get_text()
    edit = hidden_fields(soup(client.get("/games/1/deals/1/edit")))
    response = client.post(
        "/games/1/deals/1/edit",
        data={
            **edit,
            "deal": str(other["id"]),
            "diamonds_0": "4",
            "diamonds_1": "3",
            "diamonds_2": "3",
            "diamonds_3": "3",
            "step": "save",
        },
    )
    assert response.status_code == 404
    assert not watch.changed()
    watch.close()


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\xff\xfe\x00\x00",
        b"[" * 100_000,
        b"1" * 5000,
        b'{"format": NaN}',
        b'{"format": "trex-game/1", "players": ["\\ud800", "b", "c", "d"], "first_king": 0}',
        b'{"format": "trex-game/1", "players": ["a\\u0000", "b", "c", "d"], "first_king": 0}',
        b'{"format": "trex-game/1", "players": ["a", "b", "c", "d"], "first_king": 1e999}',
        b'{"format": "trex-games/1", "games": [' + b"{}, " * 2_000 + b"{}]}",
        b"PK\x03\x04" + b"\x00" * 1000,
    ],
    ids=["empty", "binary", "deep", "big-int", "nan", "surrogate", "nul", "inf", "many", "zip"],
)
def test_import__hostile_files_are_refused_with_a_message(site, body):
    from io import BytesIO

    app, client, _ = site
    watch = Watch(app)
    response = client.post(
        "/import", data={"file": (BytesIO(body), "games.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 400
    assert soup(response).select(".error, .errors, [role=alert]"), soup(response).get_text()
    assert not watch.changed()
    watch.close()


def test_import__a_file_over_the_limit_is_refused_before_it_is_read(site):
    from io import BytesIO

    from scorekeeper.web.pages.transfer import UPLOAD_LIMIT

    app, client, _ = site
    watch = Watch(app)
    # the body is built here: the test client's own encoder would spool it to a temporary
    # file that nothing closes when the server stops reading early
    body = (
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="big.json"\r\n'
        b"Content-Type: application/json\r\n\r\n" + b" " * (UPLOAD_LIMIT + 1) + b"\r\n--B--\r\n"
    )
    response = client.post(
        "/import",
        input_stream=BytesIO(body),
        content_length=len(body),
        content_type="multipart/form-data; boundary=B",
    )
    assert response.status_code == 413
    assert "larger than" in soup(response).get_text()
    assert not watch.changed()
    watch.close()


# -- Hypothesis: the deal entry and the new game ------------------------------------------
def nasty_text():
    return st.one_of(
        st.sampled_from(BAD_VALUES),
        st.text(max_size=40),
        st.integers(-20, 200).map(str),
        st.sampled_from(["0", "1", "2", "3"]),
    )


HIDDEN = ["token", "king", "contracts", "number", "version", "deal"]
ENTRY_NAMES = sorted(
    {
        *FORM_NAMES,
        "kh_doubled_by",
        "q_diamonds_taker",
        "q_clubs_taker",
        "q_hearts_taker",
        "q_spades_doubled_by",
        "q_spades_led_by",
    }
)
ENTRY_PAGES = [
    "/games/{g}/deals/new?contracts=diamonds",
    "/games/{g}/deals/new?contracts=queens",
    "/games/{g}/deals/new?contracts=king_of_hearts",
    "/games/{g}/deals/new?contracts=collections",
    "/games/{g}/thrown-in",
    "/games/{g}/deals/1/edit",
    f"/games/{{g}}/deals/new?contracts={COMPLEX}",
]


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hypothesis__deal_entry(site, data):
    app, client, _ = site
    # everything is drawn before the game is looked at, so that the draws do not depend on it
    game = data.draw(st.sampled_from([1, 2]), label="game")
    page_url = data.draw(st.sampled_from(ENTRY_PAGES), label="page").format(g=game)
    changes = data.draw(
        st.dictionaries(st.sampled_from(ENTRY_NAMES), nasty_text(), max_size=8), label="changes"
    )
    dropped = data.draw(st.lists(st.sampled_from(HIDDEN), max_size=2), label="dropped")
    step = data.draw(st.sampled_from(["save", "preview", "edit", "", "x"]), label="step")
    page = client.get(page_url)
    if page.status_code != 200:  # e.g. a contract not left in that game
        assert_answered(page, page_url)
        return
    action = soup(page).select_one("form[method=post]")["action"]
    body = {**hidden_fields(soup(page)), **changes, "step": step}
    for name in dropped:
        body.pop(name, None)
    watch = Watch(app)
    response = client.post(action, data=body)
    assert_answered(response, body)
    if response.status_code != 303:
        assert not watch.changed(), (response.status_code, body)
    watch.close()


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
                "player_0",
                "player_1",
                "player_2",
                "player_3",
                "first_king",
                "preset",
                "title",
                "played_on",
                "pin",
                "token",
                "doubling",
                "combining",
                "self_capture",
                "fixed_order_on",
                "fixed_1",
                "sweep_on",
                "sweep_tricks",
                "rotation",
                "team_result",
                "partnership",
            ]
        ),
        nasty_text(),
        max_size=12,
    ),
    base=st.booleans(),
)
def test_hypothesis__new_game(site, fields, base):
    app, client, _ = site
    start = (
        {
            "player_0": "Aya",
            "player_1": "Bilal",
            "player_2": "Carla",
            "player_3": "Dana",
            "first_king": "0",
            "preset": "standard",
        }
        if base
        else {}
    )
    db = connect(app.config["DATABASE"])
    before = db.execute("select count(*) from games").fetchone()[0]
    watch = Watch(app)
    response = client.post("/games/new", data={**start, **fields})
    assert_answered(response, fields)
    after = db.execute("select count(*) from games").fetchone()[0]
    db.close()
    if response.status_code == 303:
        assert after == before + 1
    else:
        assert not watch.changed() and after == before
    watch.close()


def test_a_database_locked_past_the_busy_timeout_is_a_503_that_says_send_again(
    tmp_path, monkeypatch
):
    import sqlite3

    from scorekeeper.store import storage

    app, client, _ = make_site(tmp_path)

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(storage, "add_deal", locked)
    entry = hidden_fields(soup(client.get("/games/1/deals/new?contracts=queens")))
    response = client.post(
        "/games/1/deals/new",
        data={
            **entry,
            "step": "save",
            **{f"q_{s}_taker": "1" for s in ("spades", "hearts", "diamonds", "clubs")},
        },
    )
    assert response.status_code == 503
    assert "Send the form again" in soup(response).get_text()
