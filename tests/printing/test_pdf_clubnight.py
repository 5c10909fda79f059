"""A club night printed: a round's seating and the night's standings, each on one page, in
English and in Arabic (right to left), straight from printing and through the pages."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
import io

from scorekeeper.printing.clubnight import render_seating_pdf, render_standings_pdf, seating_html
from test_pdf_arabic import holds, logical_text

TWELVE = [
    "Aya",
    "Bilal",
    "سامي",
    "Dana",
    "Elias",
    "ليلى",
    "Ghassan",
    "Hala",
    "Imad",
    "Jana",
    "Karim",
    "Lina",
]
RULE = "Most wins, then the better average place, then the higher total."


def standings(names):
    return [
        {
            "name": n,
            "place": i + 1,
            "games": 3,
            "finished": 3,
            "wins": 3 - min(3, i // 4),
            "places": [3 - min(3, i // 4), min(3, i // 4), 0, 0],
            "points": 400 - 45 * i,
        }
        for i, n in enumerate(names)
    ]


def pages(data: bytes) -> int:
    assert data.startswith(b"%PDF")
    return len(PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            [
                "Round 2 of 3",
                "Table 1",
                "Table 3",
                "Sitting out this round:",
                "Partners sit opposite",
            ],
        ),
        ("ar", ["الجولة 2 من 3", "الطاولة 1", "الطاولة 3", "خارج اللعب في هذه الجولة", "الشريكان"]),
    ],
)
def test_a_rounds_seating_on_one_page_in_each_language(lang, words):
    data = render_seating_pdf(
        title="Café Rawda",
        night="2026-11-24",
        round_number=2,
        rounds=3,
        tables=[TWELVE[:4], TWELVE[4:8], TWELVE[8:]],
        sitting_out=["Maya"],
        partnership=True,
        lang=lang,
    )
    assert pages(data) == 1
    text = logical_text(data)
    for word in words + TWELVE + ["Maya", "Café Rawda"]:
        assert holds(text, word), word
    html = seating_html(
        title="x",
        night="2026-11-24",
        round_number=1,
        rounds=1,
        tables=[TWELVE[:4], TWELVE[4:8]],
        lang=lang,
    )
    assert f'dir="{"rtl" if lang == "ar" else "ltr"}"' in html.split(">", 2)[1]


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            [
                "Standings of the night",
                "Champion of the night:",
                "Final standings",
                "Most wins, then the better average place",
            ],
        ),
        ("ar", ["ترتيب السهرة", "بطل السهرة", "الترتيب النهائي", "البطل"]),
    ],
)
def test_the_nights_standings_on_one_page_in_each_language_even_with_32_players(lang, words):
    names = TWELVE + [f"Player {n}" for n in range(20)]
    data = render_standings_pdf(
        title="Café",
        night="2026-11-24",
        rows=standings(names),
        rule=RULE,
        rounds_played=3,
        rounds=3,
        over=True,
        lang=lang,
    )
    assert pages(data) == 1
    text = logical_text(data)
    for word in words + names:
        assert holds(text, word), word
    [line] = [line for line in text.splitlines() if words[1] in line]
    assert "Aya" in line  # the champion is named on the line that says so


def test_the_pages_print_the_seating_and_the_standings_in_the_asked_language(app, client):
    from test_web_clubnights import EIGHT, start

    club_id = start(client)
    for lang, word in (("en", "Table 2"), ("ar", "الطاولة 2")):
        response = client.get(f"/clubs/{club_id}/rounds/1/seating.pdf?lang={lang}")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        assert pages(response.data) == 1
        text = logical_text(response.data)
        assert holds(text, word) and all(holds(text, n) for n in EIGHT)
    client.set_cookie("lang", "ar")
    response = client.get(f"/clubs/{club_id}/standings.pdf")
    assert pages(response.data) == 1 and holds(logical_text(response.data), "ترتيب السهرة")
    assert client.get(f"/clubs/{club_id}/rounds/2/seating.pdf").status_code == 404
    assert client.get(f"/clubs/{club_id}/standings.pdf?lang=fr").status_code == 404


def test_club_sheets_in_arabic_digits__numbers_through_the_sheets_filter_names_as_typed():
    """Arabic-Indic digits reach every number of both club sheets through the sheet's ``num``
    filter (not a pass over the HTML), while a name keeps the digits it was typed with."""
    from scorekeeper.printing.clubnight import standings_html

    names = TWELVE[:7] + ["Player 8"]
    seating = seating_html(
        title="Night 2",
        night="2026-11-24",
        round_number=2,
        rounds=3,
        tables=[names[:4], names[4:]],
        lang="ar",
        digits="arabic",
    )
    assert "٢٠٢٦-١١-٢٤" in seating and "الطاولة ٢" in seating and "٢ من ٣" in seating
    assert "Player 8" in seating and "Night 2" in seating
    assert "arabic-indic" in seating  # the seats' numbers too
    board = standings_html(
        title="Night 2",
        night="2026-11-24",
        rows=standings(names),
        rule=RULE,
        rounds_played=2,
        rounds=3,
        over=False,
        lang="ar",
        digits="arabic",
    )
    assert "٣·٠·٠·٠" in board and ">٤٠٠<" in board and "Player 8" in board
    western = standings_html(
        title="Night 2",
        night="2026-11-24",
        rows=standings(names),
        rule=RULE,
        rounds_played=2,
        rounds=3,
        over=False,
        lang="ar",
    )
    assert "3·0·0·0" in western and "٣" not in western
