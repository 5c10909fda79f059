"""Regression tests of what the second attack found beside the hosted box, each through the route
or the command where it was found: an import exported many times bigger, restored values that
hurt later, rounds seated early by any phone, names that broke the one-page sheet, one custom rule
set stalling every advice, and a language switched by another site."""

from __future__ import annotations

import json
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fontTools.ttLib import TTFont
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import cli
from scorekeeper.engine import Contract, HouseRules
from scorekeeper.engine.advisor import advise, baseline, parse_hand
from scorekeeper.engine.gamefile import EXTRA_LIMIT, NAME_LIMIT, name_problem
from scorekeeper.printing import render_blank_pdf, render_game_pdf, scoresheet_html
from scorekeeper.printing.render import STATIC
from scorekeeper.store import clubnights, open_database, transfer
from scorekeeper.store.db import connect
from scorekeeper.web import create_app

from gamebuilder import standard_game
from test_defects_input import upload
from test_advisor import FOUR_TWOS
from test_defects_restore import copy_of, refused, restore
from test_pdf import make_game, pdf_pages
from history_helpers import query
from test_web_clubnights import play_out, start as start_club
from web_helpers import OWN_LINK, be_admin, hidden_fields, soup

TX, KH = Contract.TREX, Contract.KING_OF_HEARTS

#: "At most a small multiple": a standard game written compact is exported 3.3 times bigger
#: alone and 4.6 times in a night's file (indented, with its scores and totals); kept keys,
#: nested however deep, must not push it further (900 deep, they made it 900 times bigger).
SMALL_MULTIPLE = 5


def nested(depth: int, kind: str):
    value: object = 7
    for _ in range(depth):
        value = [value] if kind == "list" else {"n": value}
    return value


def compact(doc) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# -- 1. a 61 KB import became a 55 MB export ------------------------------------------------
def test_amplified_export__the_attack_file_exports_about_its_own_size(
    app, client, tmp_path, capsys
):
    doc = standard_game()
    for number in range(34):
        doc[f"k{number}"] = nested(900, "list")
    text = compact(doc)
    assert 60_000 < len(text) <= EXTRA_LIMIT + 2_000
    assert upload(client, text).status_code == 303
    for url in ("/games/1/export.json", "/history/export.json"):
        response = client.get(url)
        assert response.status_code == 200
        assert len(response.data) <= SMALL_MULTIPLE * len(text), url
        exported = json.loads(response.data)
        game = exported["games"][0] if "games" in exported else exported
        assert game["k33"] == doc["k33"]  # kept as it came
    path = tmp_path / "attack.json"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["score", str(path), "--json"]) == 0
    printed = capsys.readouterr().out
    assert len(printed) <= SMALL_MULTIPLE * len(text) and json.loads(printed)["k0"] == doc["k0"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    depth=st.integers(0, 900),
    keys=st.integers(1, 40),
    kind=st.sampled_from(["list", "dict"]),
    where=st.sampled_from(["game", "deal"]),
)
def test_amplified_export__an_imports_export_is_a_small_multiple_of_it_whatever_its_nesting(
    depth, keys, kind, where
):
    doc = standard_game()
    owner = doc if where == "game" else doc["deals"][1]
    per_key = len(compact({"k00": nested(depth, kind)}))
    for number in range(max(1, min(keys, (EXTRA_LIMIT - 500) // per_key))):
        owner[f"k{number:02}"] = nested(depth, kind)
    text = compact(doc)
    with tempfile.TemporaryDirectory() as folder:
        db = open_database(Path(folder) / "db.sqlite3")
        try:
            [game_id] = transfer.import_text(db, text).ids
            one = transfer.game_json(transfer.stored_game(db, game_id))
            night = "".join(transfer.iter_document(db, [game_id]))
        finally:
            db.close()
    for exported in (one, night):
        assert len(exported.encode()) <= SMALL_MULTIPLE * len(text.encode())
    assert json.loads(one) == {**json.loads(night)["games"][0]}
    kept = json.loads(one) if where == "game" else json.loads(one)["deals"][1]
    assert kept["k00"] == nested(depth, kind)


# -- 2. restore kept values that hurt later --------------------------------------------------
EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]


@pytest.fixture
def club_database(app):
    """The install's database: a club night of eight, its first round seated."""
    db = connect(app.config["DATABASE"])
    try:
        clubnights.create(
            db,
            title="Friday club",
            night="2026-11-20",
            names=EIGHT,
            rounds=3,
            rules=HouseRules(),
            seed=1,
        )
    finally:
        db.close()
    return app.config["DATABASE"]


def club_rows(database) -> list:
    with sqlite3.connect(database) as conn:
        return conn.execute("select * from club_nights").fetchall()


@pytest.mark.parametrize(
    "sql, expected",
    [
        ("update club_nights set rules_json = 'not json'", "club night 1: its rules are not rules"),
        ("update club_nights set rules_json = '[1]'", "club night 1: its rules are not rules"),
        ("update club_nights set rules_json = '{\"sevens_wild\": true}'", "'sevens_wild'"),
        (
            "update club_nights set title = printf('%.*c', 1048576, 'x')",
            "holds more than 1024 characters in title",
        ),
        ("update club_nights set title = printf('%.*c', 97, 'x')", "club night 1: its title"),
        ("update club_nights set night = 'yesterday'", "club night 1: its night is not a date"),
        ("update club_nights set rounds_planned = 1000", "club night 1 does not have 1 to 12"),
        ("update club_tables set round = 5", "its rounds are not numbered"),
        ("insert into settings values ('ratings', 'sometimes')", "the setting 'ratings'"),
        (
            "update players set created_at = printf('%.*c', 1048576, 'x') where id = 1",
            "holds more than 1024 characters in created_at",
        ),
    ],
)
def test_restored_values__every_row_passes_the_checks_of_the_form_that_makes_it(
    tmp_path, club_database, capsys, sql, expected
):
    path = copy_of(tmp_path, club_database, "night.sqlite3", sql)
    before = club_rows(club_database)
    refused(path, club_database, tmp_path, capsys, expected)
    assert club_rows(club_database) == before


def test_restored_values__a_sound_club_night_comes_back_and_its_page_answers(
    tmp_path, app, client, club_database, capsys
):
    path = copy_of(tmp_path, club_database, "night.sqlite3")
    status, out = restore(path, club_database, capsys)
    assert status == 0, out
    assert client.get("/clubs/1").status_code == 200
    assert "Friday club" in client.get("/").get_data(as_text=True)


# -- 3. any phone could seat every round early -----------------------------------------------
def tables_seated(app, club_id: int) -> list:
    return [
        (r["round"], r["table_number"], r["game_id"])
        for r in query(
            app, "select * from club_tables where club_night_id = ? order by 1, 2", [club_id]
        )
    ]


@pytest.mark.parametrize("data", [{"anyway": "1"}, {}])
def test_early_rounds__a_watching_phone_cannot_seat_a_round(app, client, data):
    club_id = start_club(client)
    before = tables_seated(app, club_id)
    watcher = app.test_client()
    page = soup(watcher.get(f"/clubs/{club_id}"))
    assert page.select_one("#next-round") is None and page.select_one("#organiser") is None
    assert page.select_one("#who-seats") is not None
    for _ in range(3):
        response = watcher.post(f"/clubs/{club_id}/rounds", data=data)
        assert response.status_code == 403
        assert "Only the phone that started this club night" in soup(response).get_text()
    assert tables_seated(app, club_id) == before
    # nor take one back
    assert client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303
    seated = tables_seated(app, club_id)
    assert watcher.post(f"/clubs/{club_id}/rounds/2/undo").status_code == 403
    assert tables_seated(app, club_id) == seated


def test_early_rounds__the_organiser_and_the_phones_it_gives_the_link_seat_rounds(app, client):
    club_id = start_club(client, rounds="4")
    page = soup(client.get(f"/clubs/{club_id}"))
    assert page.select_one("#next-round") is not None
    link = page.select_one("#organiser-link").get_text()
    assert client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303
    helper = app.test_client()
    assert helper.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 403
    assert helper.get(link.replace("http://localhost", "")).status_code == 303
    assert helper.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303
    assert {r for r, _, _ in tables_seated(app, club_id)} == {1, 2, 3}
    assert app.test_client().get(f"/clubs/{club_id}/e/{'0' * 32}").status_code == 404
    admin = app.test_client()
    be_admin(admin, app)
    assert admin.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303


def test_early_rounds__a_round_seated_by_mistake_is_taken_back_until_a_table_deals(app, client):
    club_id = start_club(client)
    first = tables_seated(app, club_id)
    games_before = query(app, "select count(*) as n from games")[0]["n"]
    assert client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303
    page = soup(client.get(f"/clubs/{club_id}"))
    assert page.select_one("#undo-round")["action"] == f"/clubs/{club_id}/rounds/2/undo"
    response = client.post(f"/clubs/{club_id}/rounds/2/undo")
    assert response.status_code == 303
    assert "Round 2 was taken back." in soup(client.get(f"/clubs/{club_id}")).get_text()
    assert tables_seated(app, club_id) == first
    assert query(app, "select count(*) as n from games")[0]["n"] == games_before
    # Seated again; once a table of it has a deal, it stays.
    assert client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303
    seated = tables_seated(app, club_id)
    play_out(app, seated[-1][2], deals=1)
    assert soup(client.get(f"/clubs/{club_id}")).select_one("#undo-round") is None
    response = client.post(f"/clubs/{club_id}/rounds/2/undo")
    assert response.status_code == 409
    text = soup(response).select_one("#problems").get_text()
    assert "Deals are saved in round 2 (tables 2): it can no longer be taken back." in text
    assert tables_seated(app, club_id) == seated
    # The first round is the night's own, and only the last round can be taken back.
    assert client.post(f"/clubs/{club_id}/rounds/1/undo").status_code == 409


# -- 4. a name could break the one-page sheet -------------------------------------------------
def widest_letter() -> str:
    """The letter the sheet's own bold font draws widest, of those a name may hold."""
    font = TTFont(STATIC / "fonts" / "DejaVuSans-Bold.ttf")
    advance = font["hmtx"]
    widths = [
        (advance[glyph][0], code)
        for code, glyph in font.getBestCmap().items()
        if name_problem(chr(code) * NAME_LIMIT) is None
    ]
    return chr(max(widths)[1])


def four(letter: str, length: int = NAME_LIMIT) -> list[str]:
    """Four different names of *length* characters, all but the last one *letter*."""
    return [letter * (length - 1) + end for end in "abcd"]


TALLEST = [(base + "\u0301\u0308\u0311") * (NAME_LIMIT // 4) for base in "AbCd"]


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("kind", ["widest", "U+FDFD", "tallest"])
def test_name_breaks_sheet__the_widest_and_tallest_names_keep_it_one_page(lang, kind):
    names = {
        "widest": lambda: four(widest_letter()),
        "U+FDFD": lambda: four("\ufdfd"),
        "tallest": lambda: TALLEST,
    }[kind]()
    assert all(name_problem(n) is None for n in names)  # names the app accepts
    game = make_game(players=names, thrown_in=[(0, "kh-redeal", 1), (7, "trex-twos", 1)])
    for paper in ("A4", "Letter"):
        assert len(pdf_pages(render_game_pdf(game, paper=paper, lang=lang))) == 1
    assert len(pdf_pages(render_blank_pdf(names, lang=lang))) == 1


def test_name_breaks_sheet__a_name_drawn_in_a_box_of_its_own():
    html = BeautifulSoup(scoresheet_html(make_game(players=TALLEST)), "html.parser")
    boxes = html.select("bdi.nm")
    assert boxes and {b.get_text() for b in boxes} == set(TALLEST)


@pytest.mark.parametrize(
    "name", ["x" + "\u0301\u0308" * 2, "Aya" + "\u0651\u064e\u0670\u0652", "x" + "\u0301" * 39]
)
def test_name_breaks_sheet__marks_stacked_past_three_are_refused_with_a_clear_line(
    app, client, name
):
    assert name_problem(name) == "player_name_marks"
    assert name_problem("مُحَمَّد") is None and name_problem("ب\u0650\u0651\u0670") is None
    data = {
        "title": "Café",
        "played_on": "2026-11-24",
        "rounds": "3",
        "first_round": "entered",
        "preset": "standard",
        "players": "\n".join(EIGHT[:7] + [name]),
    }
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 400
    assert "A letter of a name carries at most three marks." in soup(response).get_text()
    response = client.post(
        "/games/new",
        data={
            "player_0": name,
            "player_1": "Bilal",
            "player_2": "Carla",
            "player_3": "Dana",
            "first_king": "0",
            "preset": "standard",
            "title": "x",
            "played_on": "2026-11-24",
        },
    )
    assert response.status_code == 400
    assert "stacks more than three marks on one letter" in soup(response).get_text()
    assert query(app, "select count(*) as n from games")[0]["n"] == 0


@pytest.mark.parametrize(
    "field, value, expected",
    [
        (
            "players",
            "\n".join(EIGHT[:7] + ["\u200b\u200b"]),
            "A name needs at least one letter or digit that shows.",
        ),
        ("title", "Caf\u0007é", "A title cannot hold control characters."),
    ],
)
def test_name_breaks_sheet__the_club_night_form_holds_names_to_the_one_check(
    app, client, field, value, expected
):
    data = {
        "title": "Café",
        "played_on": "2026-11-24",
        "rounds": "3",
        "first_round": "entered",
        "preset": "standard",
        "players": "\n".join(EIGHT),
        field: value,
    }
    response = client.post("/clubs/new", data=data)  # was a 500 before the check
    assert response.status_code == 400 and expected in soup(response).get_text()
    assert query(app, "select count(*) as n from club_nights")[0]["n"] == 0


# -- 5. one custom rule set stalled every advice ---------------------------------------------
def test_one_custom_rule_set__its_measurement_delays_no_other_advice(monkeypatch):
    held, release = threading.Event(), threading.Event()
    real = baseline.measure
    slow_rules = HouseRules(doubling=False)
    other_rules = HouseRules(no_heart_lead=True)

    def measure(rules, choices, samples, seed, parallel=None):
        if baseline.rules_key(rules) == baseline.rules_key(slow_rules):
            held.set()
            assert release.wait(30)
        return real(rules, choices, 5, seed, parallel=False)

    monkeypatch.setattr(baseline, "measure", measure)
    monkeypatch.setattr(baseline, "_measured", {})
    slow = threading.Thread(target=baseline.averages, args=(slow_rules, [(TX,)]))
    slow.start()
    try:
        assert held.wait(10)
        done = {}

        def known_advice():
            done["advice"] = advise(
                parse_hand(FOUR_TWOS), [(TX,), (KH,)], HouseRules(), deals=8, seed=1, parallel=False
            )

        def other_measure():
            done["other"] = baseline.averages(other_rules, [(TX,)], parallel=False)

        others = [threading.Thread(target=known_advice), threading.Thread(target=other_measure)]
        for thread in others:
            thread.start()
        for thread in others:
            thread.join(20)
        assert set(done) == {"advice", "other"}  # both finished while the first was measured
        assert slow.is_alive()
    finally:
        release.set()
        slow.join(30)
    assert not slow.is_alive()


# -- 6. any other site could switch a phone's language ---------------------------------------
SWITCHES = [("/lang/ar", "lang", "ar"), ("/digits/arabic", "digits", "arabic")]


@pytest.fixture
def csrf_client(tmp_path):
    """A phone on the app with CSRF on, as in production."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "csrf.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    return app.test_client()


@pytest.mark.parametrize("url, cookie, value", SWITCHES)
@pytest.mark.parametrize(
    "came_from",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {},
        {"Referer": "http://evil.example/"},
        {"Referer": "https://localhost/"},
        {"Sec-Fetch-Site": "cross-site", "Referer": "http://localhost/"},
    ],
)
def test_cross_site_switch__a_link_from_elsewhere_changes_nothing(
    csrf_client, url, cookie, value, came_from
):
    response = csrf_client.get(f"{url}?next=/players/", headers=came_from)
    assert response.status_code == 200
    assert not any(c.startswith(f"{cookie}=") for c in response.headers.getlist("Set-Cookie"))
    assert csrf_client.get_cookie(cookie) is None
    page = soup(response)
    assert "A link asked to" in page.get_text()
    assert page.select_one("a.btn")["href"] == "/players/"  # keep it as it is
    # The page's own button changes it: one tap, a POST with the form's token.
    fields = hidden_fields(page, "form#switch")
    assert fields["csrf_token"] and fields["next"] == "/players/"
    changed = csrf_client.post(page.select_one("form#switch")["action"], data=fields)
    assert changed.status_code == 303 and changed.headers["Location"].endswith("/players/")
    assert csrf_client.get_cookie(cookie).value == value


@pytest.mark.parametrize("url, cookie, value", SWITCHES)
def test_cross_site_switch__a_form_posted_from_elsewhere_is_refused(
    csrf_client, url, cookie, value
):
    response = csrf_client.post(
        url,
        data={"next": "/"},
        headers={"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
    )
    assert response.status_code == 400 and "Set-Cookie" not in response.headers
    assert csrf_client.get_cookie(cookie) is None


def test_cross_site_switch__the_apps_own_controls_work_in_one_tap(csrf_client):
    # The header's link, on every page (kept pages carry no form token), as a browser follows
    # a link of the page it shows.
    link = soup(csrf_client.get("/players/")).select_one("header a.lang")["href"]
    assert link.startswith("/lang/ar")
    response = csrf_client.get(link, headers=OWN_LINK)
    assert response.status_code == 303 and response.headers["Location"].endswith("/players/")
    assert csrf_client.get_cookie("lang").value == "ar"
    # An address typed or a bookmark (the phone itself) is the phone's own choice.
    csrf_client.get("/lang/en", headers={"Sec-Fetch-Site": "none"})
    assert csrf_client.get_cookie("lang").value == "en"
    # Over plain HTTP on the local network browsers send no Sec-Fetch-Site: the link sends
    # the page's origin instead (a referrer policy of its own).
    assert soup(csrf_client.get("/")).select_one("header a.lang")["referrerpolicy"] == "origin"
    csrf_client.get("/lang/ar", headers={"Referer": "http://localhost/"})
    assert csrf_client.get_cookie("lang").value == "ar"
    # The settings page: a form per setting, one button per choice, with the form's token.
    page = soup(csrf_client.get("/settings?next=/players/"))
    for selector, cookie, value in (
        ("button[lang=ar][formaction^='/lang/']", "lang", "ar"),
        ("button[formaction^='/digits/arabic']", "digits", "arabic"),
    ):
        button = page.select_one(selector)
        fields = {i["name"]: i.get("value", "") for i in button.parent.select("input")}
        response = csrf_client.post(button["formaction"], data=fields)
        assert response.status_code == 303
        assert csrf_client.get_cookie(cookie).value == value
    assert soup(csrf_client.get("/")).html["dir"] == "rtl"
