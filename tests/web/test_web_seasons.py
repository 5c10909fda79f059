"""Seasons on the pages (issue 31): added in Settings, bad input sent back with the reason in
the page's language and the input kept (nothing stored); the season's page with its standings,
champion and the rule that names them, and its hall of records, each record linked to its game;
its poster as a one-page PDF and a PNG in English and Arabic, in both digit settings; and the
page within the 40 KB budget of a first load."""

from __future__ import annotations

import io
import re

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from history_helpers import simulated_games
from scorekeeper.engine import read_game
from scorekeeper.store import seasons, transfer
from scorekeeper.store.db import connect
from web_helpers import first_load

PNG = b"\x89PNG\r\n\x1a\n"


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.fixture
def games(app):
    """Eighteen simulated games over six nights (9 to 20 November 2026) among eight players."""
    db = connect(app.config["DATABASE"])
    docs = simulated_games(18, seed=5, pool=("Aya", "Bilal", "Carla", "Dana", "Elias", "ليلى"))
    transfer.import_games(db, [read_game(d) for d in docs])
    nights = [r["night"] for r in db.query("select distinct night from games order by night")]
    db.close()
    return nights


@pytest.fixture(autouse=True)
def prints_in_threads(app):
    app.config["PRINT_IN_PROCESS"] = False


def stored_seasons(app) -> list:
    db = connect(app.config["DATABASE"])
    try:
        return seasons.all_seasons(db)
    finally:
        db.close()


def add(client, **fields):
    data = {"season-name": "", "season-first_night": "", "season-last_night": "", **fields}
    return client.post("/settings/seasons", data=data)


@pytest.mark.parametrize(
    "fields, field, english, arabic",
    [
        (
            {"season-first_night": "2026-03-01", "season-last_night": "2026-03-31"},
            "season-name",
            "A season needs a name.",
            "يحتاج الموسم إلى اسم.",
        ),
        (
            {
                "season-name": "March",
                "season-first_night": "2026-03-31",
                "season-last_night": "2026-03-01",
            },
            "season-last_night",
            "The season ends before it starts.",
            "ينتهي الموسم قبل أن يبدأ.",
        ),
        (
            {
                "season-name": "March",
                "season-first_night": "2026-02-30",
                "season-last_night": "2026-03-31",
            },
            "season-first_night",
            "2026-02-30 is not a date",
            "ليس تاريخًا",
        ),
    ],
)
def test_bad_input_in_settings_keeps_the_input_and_stores_nothing(
    app, client, fields, field, english, arabic
):
    for lang, said in (("en", english), ("ar", arabic)):
        client.set_cookie("lang", lang)
        response = add(client, **fields)
        assert response.status_code == 400
        page = soup(response)
        assert said in page.select_one(f"#{field}-error").get_text()
        for name, value in fields.items():
            assert page.select_one(f"input[name={name}]")["value"] == value
    assert stored_seasons(app) == []


def test_a_season_from_the_nights_between_two_dates(app, client, games):
    response = add(
        client,
        **{
            "season-name": "Autumn",
            "season-first_night": "2026-01-01",
            "season-last_night": "2026-12-31",
            "season-from_nights": "y",
        },
    )
    assert response.status_code == 303
    [season] = stored_seasons(app)
    assert (season.first_night, season.last_night) == (games[0], games[-1])
    response = add(
        client,
        **{
            "season-name": "Empty",
            "season-first_night": "1999-01-01",
            "season-last_night": "1999-12-31",
            "season-from_nights": "y",
        },
    )
    assert response.status_code == 400
    assert "No game was played between these dates." in response.get_data(as_text=True)
    assert len(stored_seasons(app)) == 1


def season_page(app, client, games):
    add(
        client,
        **{
            "season-name": "November",
            "season-first_night": games[0],
            "season-last_night": games[-1],
        },
    )
    [season] = stored_seasons(app)
    return season, client.get(f"/seasons/{season.id}")


def test_the_season_page_shows_the_standings_the_champion_rule_and_the_records(app, client, games):
    season, response = season_page(app, client, games)
    assert response.status_code == 200
    page = soup(response)
    db = connect(app.config["DATABASE"])
    rows = seasons.standings(db, season.first_night, season.last_night)
    hall = seasons.hall(db, season.first_night, season.last_night)
    db.close()
    shown = [
        tr.select_one("td a bdi").get_text() for tr in page.select("#season-standings tbody tr")
    ]
    assert shown == [r["name"] for r in rows]
    assert rows[0]["name"] in page.select_one("#champion").get_text()
    assert (
        "Most wins, then the better average place, then the higher total."
        in page.select_one("#champion-rule").get_text()
    )
    for kind, record in hall.records.items():
        if record is None:
            continue
        link = page.select_one(f"#record-{kind} a")
        assert link["href"] == f"/history/games/{record.game_id}"
        assert client.get(link["href"]).status_code == 200
    rules = page.select_one("#record-rules").get_text()
    assert (
        "Best Trex finisher: the most Trex deals of one game that one player finished first."
        in rules
    )
    assert page.select_one("#share-result")["data-image"] == f"/seasons/{season.id}/poster.png"


def test_the_season_page_in_arabic_with_arabic_indic_digits(app, client, games):
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", "arabic")
    _season, response = season_page(app, client, games)
    text = soup(response).select_one("#season-standings").get_text()
    assert "بطل الموسم" in text and re.search("[٠-٩]", text) and not re.search("[0-9]", text)


def test_the_season_page_of_32_players_within_the_40_kb_budget(app, client):
    """32 players with names of the most characters, in Arabic (two bytes a letter), as the
    largest club night is measured: the page with its stylesheets and scripts (36 KB)."""
    from scorekeeper.engine.gamefile import NAME_LIMIT

    names = [(f"{n:02d} " + "ليلى عبد الرحمن الحسيني " * 3)[:NAME_LIMIT] for n in range(32)]
    db = connect(app.config["DATABASE"])
    transfer.import_games(db, [read_game(d) for d in simulated_games(64, seed=8, pool=names)])
    season_id = seasons.create(db, "س" * seasons.NAME_LIMIT, "2000-01-01", "2100-01-01")
    assert len(seasons.standings(db, "2000-01-01", "2100-01-01")) == 32
    db.close()
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", "arabic")
    html = client.get(f"/seasons/{season_id}").get_data()
    weight = first_load(client, html)
    assert weight <= 40 * 1024, (len(html), weight)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("digits", ["western", "arabic"])
def test_the_poster_is_one_page_pdf_and_a_png(app, client, games, lang, digits):
    client.set_cookie("digits", digits)
    season, _ = season_page(app, client, games)
    pdf = client.get(f"/seasons/{season.id}/poster.pdf?lang={lang}")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.data))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert ("بطل الموسم" if lang == "ar" else "Champion of the season") in text
    assert bool(re.search("[٠-٩]", text)) == (digits == "arabic")
    png = client.get(f"/seasons/{season.id}/poster.png?lang={lang}")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data.startswith(PNG)


def test_a_season_that_is_not_there_is_a_404_page(client):
    assert client.get("/seasons/99").status_code == 404
    assert client.get("/seasons/99/poster.pdf").status_code == 404


def test_with_many_groups_a_season_lives_in_its_groups_own_database(tmp_path):
    """serve --groups: a season added in one group's Settings is in that group's file, its page
    answers there, and another group (or a stranger) finds nothing."""
    from group_helpers import InGroup, group_file, groups_app, start_group

    app = groups_app(tmp_path)
    a, _, phone_a = start_group(app, "Aya's table")
    b, _, phone_b = start_group(app, "Café Layali", address="127.0.0.2")
    response = InGroup(phone_a, a).post(
        "/settings/seasons",
        data={
            "season-name": "Ramadan",
            "season-first_night": "2026-02-18",
            "season-last_night": "2026-03-19",
        },
    )
    assert response.status_code == 303
    assert response.headers["Location"].startswith(f"/g/{a}/seasons/")
    assert InGroup(phone_a, a).get(response.headers["Location"]).status_code == 200
    for file, held in ((group_file(app, a), 1), (group_file(app, b), 0)):
        db = connect(file)
        assert len(seasons.all_seasons(db)) == held
        db.close()
    season_path = response.headers["Location"].removeprefix(f"/g/{a}")
    assert InGroup(phone_b, b).get(season_path).status_code == 404
    assert app.test_client().get(response.headers["Location"]).status_code == 404


def test_a_season_removed_leaves_its_games_as_they_were(app, client, games):
    season, _ = season_page(app, client, games)
    assert client.post(f"/seasons/{season.id}/remove").status_code == 303
    assert stored_seasons(app) == [] and client.get(f"/seasons/{season.id}").status_code == 404
    db = connect(app.config["DATABASE"])
    assert db.execute("select count(*) from games").fetchone()[0] == 18
    db.close()


# -- issue 37, item 4: the right words ----------------------------------------------------------
def one_season(app, docs=(), first="2026-11-01", last="2026-11-30") -> int:
    db = connect(app.config["DATABASE"])
    try:
        transfer.import_games(db, [read_game(d) for d in docs])
        return seasons.create(db, "November", first, last)
    finally:
        db.close()


def poster_text(client, season_id: int, lang: str) -> str:
    pdf = client.get(f"/seasons/{season_id}/poster.pdf?lang={lang}")
    assert pdf.status_code == 200
    reader = PdfReader(io.BytesIO(pdf.data))
    assert len(reader.pages) == 1
    return reader.pages[0].extract_text()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_issue37_4__an_empty_season_says_no_games_yet_on_its_page_and_its_poster(app, client, lang):
    season_id = one_season(app)
    client.set_cookie("lang", lang)
    said = (
        "لم تُلعب أي لعبة منتهية في هذا الموسم بعد."
        if lang == "ar"
        else "No finished game was played in this season yet."
    )
    page = soup(client.get(f"/seasons/{season_id}"))
    assert page.select_one("#no-games").get_text(strip=True) == said
    assert page.select_one("#season-standings table") is None
    text = poster_text(client, season_id, lang).replace("\n", " ")
    assert said in text
    assert ("اللاعب" if lang == "ar" else "Player") not in text  # no empty table


def test_issue37_4__one_win_in_one_game_in_both_languages_on_the_page_and_the_poster(app, client):
    docs = simulated_games(1, seed=5, pool=("Aya", "Bilal", "Carla", "Dana"))
    season_id = one_season(app, docs)
    best = soup(client.get(f"/seasons/{season_id}")).select_one("#record-best-night")
    assert "1 win in 1 game ·" in best.get_text(" ", strip=True)
    assert "1 win in 1 game" in poster_text(client, season_id, "en").replace("\n", " ")
    client.set_cookie("lang", "ar")
    best = soup(client.get(f"/seasons/{season_id}")).select_one("#record-best-night")
    assert "فوز واحد من أصل لعبة واحدة" in best.get_text(" ", strip=True)


def test_issue37_4__no_message_is_a_hand_made_plural(app):
    """Every message that counts something with a number is a Babel plural (or says the
    number apart, "entered: 1"): no msgid has "%(count)s games" (wins, rounds, "were
    entered"...) outside ngettext, where "1 games" or "1 were entered" would show."""
    from babel.messages.pofile import read_po

    from scorekeeper.languages import TRANSLATIONS

    with open(TRANSLATIONS / "messages.pot", "rb") as handle:
        catalog = read_po(handle)
    counted = re.compile(
        r"%\((?:num|count|number|games|wins|deals|points)\)s (?:\w+ )?"
        r"(?:games|wins|deals|points|rounds|were)\b|\(%\(\w+\)s games\)"
    )
    made = [m.id for m in catalog if m.id and isinstance(m.id, str) and counted.search(m.id)]
    assert made == []
