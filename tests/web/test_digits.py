"""Figures in the phone's digits, with the separators and the percent sign that go with them:
Babel's Arabic numbering system ("١٢٫٥", "٤٢٪؜"), not Arabic-Indic digits beside an ASCII point
or percent ("١٢.٥", "٤٢%"). The pages, the charts and the printed sheet write their numbers
through the same functions (``languages.digits_text`` and ``languages.number_text``)."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from gamebuilder import standard_game
from history_helpers import import_docs, query
from scorekeeper.languages import digits_text, number_text
from web_helpers import soup

ARABIC_PERCENT = "٪\u061c"  # CLDR's percent sign for the arab numbering system (with its mark)
#: An ASCII separator or percent sign beside an Arabic-Indic digit. A full stop that ends a
#: sentence after a number ("starts at ١٠٠٠.") is punctuation, not a decimal point: a point
#: counts only between two digits.
ASCII_NEXT_TO_ARABIC = re.compile("[٠-٩][%,]|[%,][٠-٩]|[٠-٩]\\.[٠-٩]|(?<![٠-٩ ])\\.[٠-٩]")


@pytest.mark.parametrize(
    "value, options, western, arabic",
    [
        (12.5, {"places": 1}, "12.5", "١٢٫٥"),
        (12.5, {"places": 1, "plus": True}, "+12.5", "+١٢٫٥"),
        (-3.3, {"places": 1, "plus": True}, "−3.3", "−٣٫٣"),
        (-0.04, {"places": 1, "plus": True}, "0.0", "٠٫٠"),
        (42, {"percent": True}, "42%", "٤٢" + ARABIC_PERCENT),
        (3.0, {"places": 1, "trim": True}, "3", "٣"),
        (2.25, {"places": 1, "trim": True}, "2.2", "٢٫٢"),
        (1234.5, {"places": 1}, "1234.5", "١٢٣٤٫٥"),
    ],
)
def test_number_text__in_both_digit_settings(value, options, western, arabic):
    assert number_text(value, False, **options) == western
    assert number_text(value, True, **options) == arabic


def test_digits_text__whole_numbers_and_lines_keep_everything_but_the_digits():
    assert digits_text(2026, True) == "٢٠٢٦"
    assert digits_text("K♥ −75", True) == "K♥ −٧٥"
    assert digits_text("K♥ −75", False) == "K♥ −75"
    assert digits_text(None, True) == ""


@pytest.fixture
def player_page(app, client):
    import_docs(app, [standard_game(players=["Aya", "Bilal", "Carla", "Dana"])])
    [row] = query(app, "select id from players where name = 'Aya'")
    return f"/players/{row['id']}"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_player_page__shares_and_averages_in_arabic_digits_use_arabic_separators(
    client, player_page, lang
):
    client.set_cookie("lang", lang)
    client.set_cookie("digits", "arabic")
    page = soup(client.get(player_page))
    wins = page.select_one("#wins small").get_text(strip=True)
    assert wins.endswith(ARABIC_PERCENT) and re.fullmatch("[٠-٩]+" + ARABIC_PERCENT, wins)
    average = page.select_one("#average").get_text(strip=True)
    assert re.fullmatch("[+−]?[٠-٩]+٫[٠-٩]", average), average
    main = page.select_one("main").get_text(" ")
    assert not ASCII_NEXT_TO_ARABIC.search(main), ASCII_NEXT_TO_ARABIC.search(main)


def test_player_page__western_digits_keep_the_point_and_percent(client, player_page):
    client.set_cookie("digits", "western")
    page = soup(client.get(player_page))
    assert re.fullmatch("[0-9]+%", page.select_one("#wins small").get_text(strip=True))
    assert re.fullmatch(r"[+−]?[0-9]+\.[0-9]", page.select_one("#average").get_text(strip=True))


def test_chart_labels__arabic_decimal_separator():
    from scorekeeper.web import create_app
    from scorekeeper.web.keeping.svgcharts import _number

    app = create_app({"TESTING": True, "DATABASE": ":memory:"})
    with app.test_request_context(headers={"Cookie": "digits=arabic"}):
        assert _number(-12.5) == "−١٢٫٥" and _number(3.0) == "٣"
    with app.test_request_context():
        assert _number(-12.5) == "−12.5" and _number(3.0) == "3"


@pytest.mark.parametrize("digits", ["western", "arabic"])
def test_printed_sheet__numbers_through_the_filter_names_as_written(digits):
    """The sheet writes its numbers through the filter in its template: the points, the deal
    numbers and the footer's values are in the digits asked for, while a name or a title is
    printed as the table typed it (a pass over the HTML turned "Table 7" into "Table ٧")."""
    from scorekeeper.printing import render
    from test_pdf import make_game

    assert not hasattr(render, "with_digits")
    game = make_game(players=["Sami 2", "Nour", "Hala", "Rami"], title="Table 7")
    html = render.scoresheet_html(game, lang="ar", digits=digits)
    body = BeautifulSoup(html, "html.parser").body
    assert "Sami 2" in body.get_text() and "Table 7" in body.get_text()
    totals = [td.get_text() for td in body.select("td.pts")]
    assert totals and all(
        re.fullmatch("−?[٠-٩]+" if digits == "arabic" else "−?[0-9]+", t) for t in totals if t
    )
    footer = body.select_one("footer") or body
    values = "+200/+150/+100/+50"
    assert (values if digits == "western" else digits_text(values, True)) in footer.get_text()
