"""Share the night: a finished game's result and a night's totals as a short text in both
languages (names isolated, digits as the phone reads them), the scoresheet as a PNG made from
the same sheet as the PDF, and the page without JavaScript: the text to copy, the image to
download."""

from __future__ import annotations

import io

import pytest
from babel.support import Translations
from PIL import Image

from scorekeeper.languages import TRANSLATIONS
from scorekeeper.store import clubnights
from web_helpers import Table, soup

from played import GAME  # the whole game the browser suite plays

NAMES = ["Aya", "Bilal", "ليلى", "Dana"]
AR = Translations.load(str(TRANSLATIONS), ["ar"])
FSI, PDI, RLM = "\u2068", "\u2069", "\u200f"


def play(table: Table, names=NAMES, deals=GAME) -> int:
    game_id = table.new_game(names)
    table.play(game_id, deals)
    return game_id


@pytest.fixture
def finished(client):
    return play(Table(client))


def shared_text(client, url: str) -> str:
    return soup(client.get(url)).select_one("textarea#share-text").get_text()


def test_game_text__standings_and_winner_in_english(client, finished):
    button = soup(client.get(f"/games/{finished}")).select_one("#share-result")
    text = button["data-share"]
    assert text == shared_text(client, button["href"])
    lines = text.split("\n")
    assert lines[0] == f"Trex · {FSI}Test night{PDI} · Fri 20 Nov 2026"
    assert lines[1:5] == [
        f"1. {FSI}Dana{PDI} \u2066+115\u2069",
        f"2. {FSI}Aya{PDI} \u2066+25\u2069",
        f"3. {FSI}ليلى{PDI} \u2066−25\u2069",
        f"4. {FSI}Bilal{PDI} \u2066−115\u2069",
    ]
    assert lines[5] == f"Winner: {FSI}Dana{PDI}"
    assert button["data-image"] == f"/games/{finished}/sheet.png"


@pytest.mark.parametrize("digits", ["western", "arabic"])
def test_game_text__in_arabic_in_both_digit_settings(client, finished, digits):
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", digits)
    text = shared_text(client, f"/games/{finished}/result")
    lines = text.split("\n")
    assert all(line.startswith(RLM) for line in lines)  # each line reads right to left
    lines = [line[1:] for line in lines]
    assert lines[0].startswith(AR.gettext("Trex") + " · ")
    one, plus = ("١", "+١١٥") if digits == "arabic" else ("1", "+115")
    assert lines[1] == f"{one}. {FSI}Dana{PDI} \u2066{plus}\u2069"
    assert lines[5] == AR.gettext("Winner: %(names)s") % {"names": f"{FSI}Dana{PDI}"}
    assert f"{FSI}ليلى{PDI}" in text
    if digits == "arabic":
        assert not any(c.isascii() and c.isdigit() for c in text)


def test_an_unfinished_game_has_no_share_button(client):
    game_id = play(Table(client), deals=GAME[:3])
    assert soup(client.get(f"/games/{game_id}")).select_one("#share-result") is None


def test_sheet_png__opens_as_an_image_of_the_sheet(client, finished):
    response = client.get(f"/games/{finished}/sheet.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.load()
    assert image.format == "PNG"
    width, height = image.size
    assert width == 1240 and 1.3 < height / width < 1.5  # an A4 page
    assert image.convert("L").getextrema()[0] < 64  # there is ink on it
    again = client.get(
        f"/games/{finished}/sheet.png", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304
    assert client.get("/games/999/sheet.png").status_code == 404


def test_no_javascript__the_result_page_offers_the_text_and_the_image(client, finished):
    page = soup(client.get(f"/games/{finished}/result"))
    area = page.select_one("textarea#share-text")
    assert area.has_attr("readonly") and "Dana" in area.get_text()
    assert page.select_one("label[for=share-text]") is not None
    link = page.select_one("a#share-image")
    assert link["href"] == f"/games/{finished}/sheet.png" and link.has_attr("download")
    assert page.select_one("#copy-result").has_attr("hidden")  # copying needs the script
    assert page.select_one("#share-result").has_attr("hidden")  # so does the Web Share API
    lines = area.get_text().split("\n")
    assert not any(line.startswith(RLM) for line in lines)  # English reads left to right


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_night_text__the_night_standings_and_its_champion(app, client, lang):
    table = Table(client)
    play(table)
    play(table, names=["Aya", "Bilal", "ليلى", "Hala"])
    with app.app_context():
        from scorekeeper.web.access.database import get_db

        db = get_db()
        standings = clubnights.night_standings(db, clubnights.night_game_ids(db, "2026-11-20"))
    client.set_cookie("lang", lang)
    night = soup(client.get("/history/nights/2026-11-20"))
    button = night.select_one("#share-result")
    text = button["data-share"]
    assert text == shared_text(client, button["href"])
    say = (lambda m: m) if lang == "en" else AR.gettext
    lines = [line.removeprefix(RLM) for line in text.split("\n")]
    assert lines[1] == (
        "2 games" if lang == "en" else AR.ngettext("%(num)s game", "%(num)s games", 2)
    )
    shown = [line.split(FSI)[1].split(PDI)[0] for line in lines[2 : 2 + len(standings)]]
    assert shown == [row["name"] for row in standings]
    champion = standings[0]["name"]
    assert lines[-2] == say("Champion of the night: %(name)s") % {"name": f"{FSI}{champion}{PDI}"}
    assert lines[-1] == say(clubnights.CHAMPION_RULE)
    assert client.get("/history/nights/2026-01-01/result").status_code == 404
    assert client.get("/history/nights/nonsense/result").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_night_image__the_night_standings_printed_as_a_png(app, client, lang):
    """A night's Share button sends the night's standings as an image too: the standings sheet
    on one page, in the phone's language, opened as a PNG; unchanged, it is answered 304."""
    table = Table(client)
    play(table)
    play(table, names=["Aya", "Bilal", "ليلى", "Hala"])
    client.set_cookie("lang", lang)
    button = soup(client.get("/history/nights/2026-11-20")).select_one("#share-result")
    assert button["data-image"] == "/history/nights/2026-11-20/standings.png"
    response = client.get(button["data-image"])
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.load()
    width, height = image.size
    assert width == 1240 and 1.3 < height / width < 1.5
    assert image.convert("L").getextrema()[0] < 64
    assert (
        client.get(
            button["data-image"], headers={"If-None-Match": response.headers["ETag"]}
        ).status_code
        == 304
    )
    client.set_cookie("lang", "en" if lang == "ar" else "ar")  # another language, another image
    assert (
        client.get(
            button["data-image"], headers={"If-None-Match": response.headers["ETag"]}
        ).status_code
        == 200
    )
    assert client.get("/history/nights/2026-01-01/standings.png").status_code == 404
    assert client.get("/history/nights/nonsense/standings.png").status_code == 404
