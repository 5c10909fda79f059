"""Arabic and English: the language chosen per request, right to left under Arabic, every
message in the code translated, and the engine's problems in Arabic next to their fields."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.engine import Problem
from scorekeeper.engine.contracts import CONTRACT_LABELS
from scorekeeper.engine.messages import MESSAGES, SEAT_QUESTIONS
from scorekeeper.engine.rules import RULES_TEXT
from scorekeeper.web.making.i18n import local_path
from scorekeeper.languages import FORM_MESSAGES, SAY_WHO
from scorekeeper.web.making.messages import problem_text

from web_helpers import OWN_LINK, error_next_to, soup

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "scorekeeper" / "translations" / "ar" / "LC_MESSAGES"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "N_": None,
    "flash_message": None,
    "flash_plural": (1, 2),
}


def arabic_catalog():
    with open(CATALOG / "messages.po", "rb") as handle:
        return read_po(handle, locale="ar")


def code_messages() -> set[str | tuple[str, ...]]:
    """Every message the code and the templates mark for translation, and the engine's."""
    found = {
        message
        for _, _, message, _, _ in extract_from_dir(
            ROOT,
            method_map=[("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")],
            keywords=KEYWORDS,
        )
    }
    found.update(
        MESSAGES.values(),
        FORM_MESSAGES.values(),
        CONTRACT_LABELS.values(),
        [SAY_WHO],
        RULES_TEXT.values(),
        SEAT_QUESTIONS,
    )
    return found


def test_catalog__every_message_in_the_code_has_an_arabic_translation():
    catalog = arabic_catalog()
    untranslated = []
    for message in code_messages():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        strings = entry.string if entry is not None else None
        if not strings or not all(strings if isinstance(strings, tuple) else [strings]):
            untranslated.append(key)
    assert untranslated == []


def test_catalog__every_engine_message_keeps_its_placeholders_in_arabic():
    catalog = arabic_catalog()
    import string

    def fields(text):
        return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)

    for template in [*MESSAGES.values(), *RULES_TEXT.values()]:
        assert fields(catalog.get(template).string) == fields(template), template


def test_catalog__the_compiled_mo_matches_the_po():
    catalog = arabic_catalog()
    with open(CATALOG / "messages.mo", "rb") as handle:
        compiled = read_mo(handle)

    def entries(messages):
        return {
            (tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id): (
                tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
            )
            for m in messages
            if m.id and not m.fuzzy
        }

    wanted, have = entries(catalog), entries(compiled)
    assert have == wanted


def test_local_path__only_paths_on_this_site():
    assert local_path("/games/3?x=1") == "/games/3?x=1"
    for bad in ("https://evil.example/", "//evil.example/", "/\\evil", "", None, "games"):
        assert local_path(bad) == "/"


@pytest.mark.parametrize("url", ["/", "/history/", "/players/"])
def test_pages__english_by_default_left_to_right(client, url):
    html = soup(client.get(url)).html
    assert (html["lang"], html["dir"]) == ("en", "ltr")


@pytest.mark.parametrize("url", ["/", "/history/", "/players/"])
def test_pages__arabic_from_the_browser_preference(client, url):
    response = client.get(url, headers={"Accept-Language": "ar-JO,ar;q=0.9,en;q=0.5"})
    html = soup(response).html
    assert (html["lang"], html["dir"]) == ("ar", "rtl")
    assert "السجل" in html.select_one("nav.sections").get_text()


def test_switch__overrides_the_browser_and_is_remembered(client):
    response = client.get("/lang/ar?next=/players/", headers=OWN_LINK)
    assert response.status_code == 303 and response.headers["Location"].endswith("/players/")
    assert "lang=ar" in response.headers["Set-Cookie"]
    page = soup(client.get("/", headers={"Accept-Language": "en"}))
    assert page.html["dir"] == "rtl" and page.h1.get_text() == "حاسبة التركس"
    switch = page.select_one("a.lang")
    assert switch["href"].startswith("/lang/en") and switch.get_text() == "English"
    client.get("/lang/en?next=https://evil.example/", headers=OWN_LINK)
    page = soup(client.get("/", headers={"Accept-Language": "ar"}))
    assert page.html["dir"] == "ltr" and page.h1.get_text() == "Trex Scorekeeper"


def test_switch__an_unknown_language_changes_nothing(client):
    response = client.get("/lang/xx?next=/", headers=OWN_LINK)
    assert response.status_code == 303 and "Set-Cookie" not in response.headers


def test_game_page__arabic_contract_names_and_isolated_names(client, table):
    game = table.new_game(["سامي", "Nour", "ليلى Sam", "Hala"])
    client.set_cookie("lang", "ar")
    page = soup(client.get(f"/games/{game}"))
    assert page.html["dir"] == "rtl"
    text = page.get_text()
    for word in ("المجموع", "لم تُلعب بعد", "الديناري", "البنات", "اللطش", "تركس"):
        assert word in text
    names = [b.get_text() for b in page.select(".sheet thead bdi")]
    assert "ليلى Sam" in names and "Nour" in names


def test_game_page__a_table_chooses_its_own_word_for_the_king_of_hearts(client, table):
    game = table.new_game()
    client.set_cookie("lang", "ar")
    client.set_cookie("words", "khityar")
    assert "الختيار" in soup(client.get(f"/games/{game}")).get_text()


def test_digits__arabic_indic_when_the_device_asks(client, table):
    game = table.new_game()
    client.get("/digits/arabic?next=/", headers=OWN_LINK)
    client.set_cookie("lang", "ar")
    assert (
        "اللعبة ١" in soup(client.get("/")).get_text()
        or "١" in soup(client.get(f"/games/{game}")).get_text()
    )


def test_engine_problem__in_arabic_next_to_its_field(client, table):
    game = table.new_game()
    client.set_cookie("lang", "ar")
    response = table.post_entry(
        game,
        "diamonds",
        {"diamonds_0": "4", "diamonds_1": "4", "diamonds_2": "4", "diamonds_3": "4"},
    )
    assert response.status_code == 400
    assert error_next_to(soup(response), "g-diamonds") == ["مجموع الأعداد 16، وليس 13."]


def test_engine_problem__english_unchanged(app):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert (
            problem_text(Problem("counts_sum", {"total": 16, "expected": 13}))
            == "The counts add up to 16, not 13."
        )
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        assert (
            problem_text(Problem("contract_used", {"contract": "Queens"}))
            == "البنات لُعبت من قبل في هذه المملكة."
        )


def test_engine_problem__its_game_deal_and_contract_said_in_the_pages_language(app):
    problem = Problem(
        "counts_sum", {"total": 16, "expected": 13}, deal=3, contract="diamonds", game=2
    )
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert (
            problem_text(problem, context=True)
            == "Game 2, Deal 3, Diamonds: the counts add up to 16, not 13."
        )
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        assert (
            problem_text(problem, context=True)
            == "اللعبة 2، اليد 3، الديناري: مجموع الأعداد 16، وليس 13."
        )


def test_catalog__twelve_deals_take_the_singular_accusative_and_a_hundred_the_plain_form():
    """Arabic counts 11 to 99 with the singular accusative (12 يدًا) and 100 to 102 with the
    plain singular (100 يد): the catalog's plural forms 5 and 4. Checked on every message that
    counts deals."""
    from babel.support import Translations

    from scorekeeper.languages import TRANSLATIONS

    arabic = Translations.load(str(TRANSLATIONS), ["ar"])
    import re

    counted = [m.id for m in arabic_catalog() if m.pluralizable and " deal" in m.id[0]]
    number_then_noun = re.compile(r"%\(num\)s (يد|أيد)")
    checked = 0
    for singular, plural in counted:
        twelve = arabic.ungettext(singular, plural, 12)
        hundred = arabic.ungettext(singular, plural, 100)
        if not number_then_noun.search(twelve + hundred):
            continue  # counted another way ("الأيدي الـ12")
        checked += 1
        assert "%(num)s يدًا" in twelve, (singular, twelve)
        assert "%(num)s يد" in hundred and "يدًا" not in hundred, (singular, hundred)
    assert checked >= 4
