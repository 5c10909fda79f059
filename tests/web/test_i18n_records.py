"""Past nights, players, statistics, charts and import under Arabic: the words in Arabic, the
charts read right to left, dates with Arabic month names, and every name isolated in <bdi>."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET

import pytest

from gamebuilder import standard_game
from history_helpers import import_docs, query, simulated_games
from i18n_helpers import english_left
from web_helpers import be_admin, soup

ARABIC = re.compile("[\u0600-\u06ff]")
SVG = "{http://www.w3.org/2000/svg}"


def upload(client, text: str, name: str = "night.json"):
    return client.post(
        "/import",
        data={"file": (io.BytesIO(text.encode()), name)},
        content_type="multipart/form-data",
    )


@pytest.fixture
def over(app):
    """A finished game with Arabic and Latin names, stored as an import stores it."""
    doc = standard_game(players=["سامي", "Nour", "ليلى Sam", "Hala"])
    doc["played_on"] = "2026-11-20"
    [game_id] = import_docs(app, [doc])
    return game_id


def _axis_texts(svg: bytes, axis: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    group = next(
        g for g in root.iter(f"{SVG}g") if g.get("class", "").split()[:2] == ["axis", axis]
    )
    return list(group.iter(f"{SVG}text"))


# -- charts --------------------------------------------------------------------------------
def test_running_chart__arabic_words_deals_from_right_to_left_values_on_the_right(client, over):
    english = client.get(f"/charts/games/{over}/running.svg").get_data()
    client.set_cookie("lang", "ar")
    arabic = client.get(f"/charts/games/{over}/running.svg").get_data()
    words = " ".join(t.text or "" for t in ET.fromstring(arabic).iter(f"{SVG}text"))
    assert "اليد" in words and "Deal" not in words
    assert "Deal" in " ".join(t.text or "" for t in ET.fromstring(english).iter(f"{SVG}text"))

    def deal_positions(svg):
        texts = [t for t in _axis_texts(svg, "x") if (t.text or "").isdigit()]
        return {int(t.text): float(t.get("x")) for t in texts}

    left_to_right, right_to_left = deal_positions(english), deal_positions(arabic)
    assert left_to_right[1] < left_to_right[20]
    assert right_to_left[1] > right_to_left[20]  # the first deal at the right
    english_y = [float(t.get("x")) for t in _axis_texts(english, "y")]
    arabic_y = [float(t.get("x")) for t in _axis_texts(arabic, "y")]
    assert english_y and max(english_y) < 0  # left of the plot
    assert arabic_y and min(arabic_y) > 0  # right of the plot


def test_contract_chart__legend_and_contract_names_in_arabic(app, client, over):
    [row] = query(app, "select player_id from game_players where game_id = ? and seat = 0", [over])
    client.set_cookie("lang", "ar")
    svg = client.get(f"/charts/players/{row['player_id']}/contracts.svg").get_data(as_text=True)
    for word in ("ملكًا", "تحت ملك آخر", "الديناري", "البنات", "اللطش", "تركس"):
        assert word in svg
    assert "As King" not in svg and "Diamonds" not in svg


# -- import --------------------------------------------------------------------------------
def test_import__a_bad_file_lists_every_problem_in_arabic(app, client):
    first = standard_game(players=["Aya", "Bilal", "Carla", "Dana"])
    first["deals"][2]["diamonds"] = [4, 3, 2, 3]  # 12 diamonds
    second = standard_game(players=["Aya", "Aya ", "Carla", "Dana"])  # the same name twice
    client.set_cookie("lang", "ar")
    response = upload(
        client, json.dumps({"format": "trex-games/1", "games": [first, second]}), "bad night.json"
    )
    assert response.status_code == 400
    page = soup(response)
    box = page.select_one("#problems")
    lines = [li.get_text(" ", strip=True) for li in box.select("li")]
    assert len(lines) >= 2
    assert all(ARABIC.search(line) for line in lines), lines
    assert english_left(box, also_kept=("Aya",)) == []  # the name the file gave twice
    assert "لم يُستورد" in box.p.get_text() and box.p.bdi.get_text() == "bad night.json"


def test_import__an_empty_file_list_and_a_missing_file_in_arabic(client):
    client.set_cookie("lang", "ar")
    empty = soup(upload(client, json.dumps({"format": "trex-games/1", "games": []})))
    assert [li.get_text() for li in empty.select("#problems li")] == ["الملف لا يحوي أي لعبة."]
    none = soup(client.post("/import", data={}, content_type="multipart/form-data"))
    assert english_left(none.select_one("#problems")) == []


def test_import__the_message_after_importing_is_arabic(client):
    client.set_cookie("lang", "ar")
    response = upload(client, json.dumps(standard_game()))
    page = soup(client.get(response.headers["Location"]))
    assert page.select_one(".flash").get_text(strip=True) == "استُوردت لعبة واحدة."


def test_import__the_message_follows_a_language_switch_and_says_what_was_skipped(client):
    """Imported under English, read under Arabic: the message is said by the page that shows
    it. Sent again, the game is skipped, and that is said too."""
    text = json.dumps(standard_game())
    response = upload(client, text)
    client.set_cookie("lang", "ar")
    page = soup(client.get(response.headers["Location"]))
    assert page.select_one(".flash").get_text(strip=True) == "استُوردت لعبة واحدة."
    client.set_cookie("lang", "en")
    response = upload(client, text)
    client.set_cookie("lang", "ar")
    flash = soup(client.get(response.headers["Location"])).select_one(".flash").get_text()
    assert "محفوظة من قبل" in flash and "stored" not in flash


# -- players -------------------------------------------------------------------------------
def test_rename__the_message_is_arabic_with_both_names_isolated(app, client, table):
    game = table.new_game(["سامي", "Nour", "Carla", "Hala"])
    [row] = query(app, "select player_id from game_players where game_id = ? and seat = 1", [game])
    be_admin(client, app)
    client.get("/")  # shows (and so clears) the admin link's message
    client.set_cookie("lang", "ar")
    response = client.post(f"/players/{row['player_id']}/rename", data={"name": "Nour Haddad"})
    assert response.status_code == 303
    flash = soup(client.get(response.headers["Location"])).select_one(".flash p")
    assert flash.get_text().startswith("تغيّر الاسم")
    assert [b.get_text() for b in flash.select("bdi")] == ["Nour", "Nour Haddad"]
    assert english_left(flash) == []


def test_rename__a_refusal_is_arabic(app, client, table):
    game = table.new_game(["سامي", "Nour", "Carla", "Hala"])
    [row] = query(app, "select player_id from game_players where game_id = ? and seat = 1", [game])
    be_admin(client, app)
    client.set_cookie("lang", "ar")
    page = soup(client.post(f"/players/{row['player_id']}/rename", data={"name": "carla"}))
    error = page.select_one(".error")
    assert "لاعب آخر" in error.get_text() and error.bdi.get_text() == "Carla"


# -- dates ---------------------------------------------------------------------------------
def test_night__the_date_with_its_arabic_day_and_month(client, over):
    english = soup(client.get("/history/nights/2026-11-20"))
    assert english.h1.get_text() == "Fri 20 Nov 2026"
    client.set_cookie("lang", "ar")
    page = soup(client.get("/history/nights/2026-11-20"))
    assert page.h1.get_text() == "الجمعة 20 نوفمبر 2026"
    history = soup(client.get("/history/"))
    assert "الجمعة 20 نوفمبر 2026" in history.select_one("section.night h2").get_text()


def test_night__arabic_indic_digits_when_the_device_asks(client, over):
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", "arabic")
    page = soup(client.get("/history/nights/2026-11-20"))
    assert page.h1.get_text() == "الجمعة ٢٠ نوفمبر ٢٠٢٦"


# -- names ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "/history/games/{over}",
        "/history/",
        "/players/",
        "/leaderboard",
        "/history/nights/2026-11-20",
        "/players/{player}",
    ],
)
def test_every_name_on_the_page_is_inside_bdi(app, client, over, path):
    [row] = query(app, "select player_id from game_players where game_id = ? and seat = 0", [over])
    client.set_cookie("lang", "ar")
    page = soup(client.get(path.format(over=over, player=row["player_id"])))
    page.head.decompose()
    names = ("سامي", "Nour", "ليلى Sam", "Hala")
    seen = 0
    for text in page.find_all(string=True):
        if any(name in text for name in names):
            assert text.find_parent("bdi") is not None, (path, str(text.parent)[:200])
            seen += 1
    assert seen


def test_record__deal_lines_isolate_names_and_card_codes(client, over):
    client.set_cookie("lang", "ar")
    page = soup(client.get(f"/history/games/{over}"))
    lines = page.select("ol.deals li p")
    assert lines and all(line.bdi is not None for line in lines)
    cards = {span.get_text() for line in lines for span in line.select("span.ltr")}
    assert {"K♥", "Q♠", "Q♥", "Q♦", "Q♣"} <= cards


# -- filters and merging -------------------------------------------------------------------
def test_leaderboard__filters_and_their_problems_in_arabic(client, over):
    client.set_cookie("lang", "ar")
    page = soup(
        client.get("/leaderboard?from=2026-11-30&to=2026-11-01&preset=complex&sort=average")
    )
    summary = page.select_one("details.filters summary").get_text()
    assert "قواعد كومبلكس" in summary and "نوفمبر" in summary
    assert "بُدّل التاريخان" in page.select_one(".error").get_text()
    assert english_left(page.select_one("main")) == []
    typo = soup(client.get("/leaderboard?from=30-11-2026"))
    assert english_left(typo.select_one("main")) == []
    assert "ليس تاريخًا" in typo.select_one(".error").get_text()


def test_merge__the_confirmation_in_arabic_with_names_isolated(app, client, table):
    first = table.new_game(["سامي", "Nour", "Carla", "Hala"])
    second = table.new_game(["سامي", "Nur", "Carla", "Hala"])
    [keep] = query(
        app, "select player_id from game_players where game_id = ? and seat = 1", [first]
    )
    [drop] = query(
        app, "select player_id from game_players where game_id = ? and seat = 1", [second]
    )
    be_admin(client, app)
    client.get("/")  # shows (and so clears) the admin link's message
    client.set_cookie("lang", "ar")
    page = soup(client.get(f"/players/{keep['player_id']}/merge?other={drop['player_id']}"))
    assert english_left(page.select_one("main")) == []
    warning = page.select_one("section.card.warn p")
    assert {b.get_text() for b in warning.select("bdi")} == {"Nour", "Nur"}
    hidden = {i["name"]: i.get("value", "") for i in page.select("form input[type=hidden]")}
    response = client.post(f"/players/{keep['player_id']}/merge", data=hidden)
    flash = soup(client.get(response.headers["Location"])).select_one(".flash p")
    assert flash.get_text().startswith("تم الدمج") and english_left(flash) == []


def test_team_names__joined_in_the_pages_language_each_name_isolated(app, client):
    doc = next(d for d in simulated_games(12, seed=4) if d["rules"].get("partnership"))
    [game] = import_docs(app, [doc])
    client.set_cookie("lang", "ar")
    page = soup(client.get(f"/games/{game}"))
    team_cells = [td for td in page.select("table.standings td") if " و" in td.get_text()]
    assert len(team_cells) == 2
    assert all(len(td.select("bdi bdi")) == 2 for td in team_cells)
    assert "&" not in page.select_one("table.standings.teams").get_text()
    client.set_cookie("lang", "en")
    english = soup(client.get(f"/games/{game}")).select_one("table.standings.teams").get_text()
    assert f"{doc['players'][0]} & {doc['players'][2]}" in english
