"""The printed scoresheets as downloads: a game's sheet, and a blank one with the names."""

from __future__ import annotations

import io
from urllib.parse import parse_qs, urlsplit

from pypdf import PdfReader

from web_helpers import PLAYERS, soup


def pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_game_sheet__a_pdf_download_named_after_the_night(table, client):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=trex-2026-11-20-test-night.pdf"
    )
    assert "Bilal" in pdf_text(response.data)


def test_game_sheet__letter_paper_and_a_title_without_letters(table, client):
    game_id = table.new_game(title="ليلة الجمعة")
    response = client.get(f"/games/{game_id}/sheet.pdf?paper=letter")
    assert response.status_code == 200 and response.data.startswith(b"%PDF-")
    assert response.headers["Content-Disposition"] == "attachment; filename=trex-2026-11-20.pdf"
    assert client.get(f"/games/{game_id}/sheet.pdf?paper=A5").status_code == 404


def test_game_sheet__of_no_game_is_a_404(client):
    response = client.get("/games/404/sheet.pdf")
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_blank_sheet__with_the_four_names(client):
    response = client.get("/sheet/blank.pdf?" + "&".join(f"names={n}" for n in PLAYERS))
    assert response.status_code == 200 and response.data.startswith(b"%PDF-")
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=trex-blank-scoresheet.pdf"
    )
    text = pdf_text(response.data)
    assert all(name in text for name in PLAYERS)


def test_blank_sheet__four_names_or_none(client):
    assert client.get("/sheet/blank.pdf?names=Aya&names=Bilal").status_code == 400
    assert client.get("/sheet/blank.pdf?" + "&".join(["names=" + "x" * 41] * 4)).status_code == 400


def test_links__on_the_game_page_and_the_new_game_page(table, client):
    game_id = table.new_game()
    page = soup(client.get(f"/games/{game_id}"))
    link = page.find("a", string="Scoresheet PDF")
    assert link["href"] == f"/games/{game_id}/sheet.pdf" and link.has_attr("download")
    blank = soup(client.get("/games/new")).select_one("#blank-sheet")
    assert blank["href"] == "/sheet/blank.pdf" and blank["data-base"] == "/sheet/blank.pdf"
    again = soup(client.get(f"/games/new?from={game_id}")).select_one("#blank-sheet")
    assert parse_qs(urlsplit(again["href"]).query) == {"names": list(PLAYERS)}
