"""The pages at the table in Arabic: entry forms, flash messages, the new-game form's errors,
the words the scripts show, player names isolated, error pages."""

from __future__ import annotations

import json
from pathlib import Path

from gamebuilder import standard_deal
from web_helpers import error_next_to, form_fields, hidden_fields, soup

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["سامي", "Nour", "ليلى Sam", "Hala"]
#: A card's name in Arabic text is isolated left to right, so that "K♥" does not read "♥K".
LRI, PDI = "\u2066", "\u2069"
NEW_GAME = {
    "player_0": "سامي",
    "player_1": "Nour",
    "player_2": "ليلى Sam",
    "player_3": "Hala",
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}


def arabic(client) -> None:
    client.set_cookie("lang", "ar")


def flash_text(page) -> str:
    box = page.select_one(".flash")
    return box.get_text(" ", strip=True) if box is not None else ""


def test_entry_form__labels_buttons_and_hints_in_arabic(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    page = table.open_form(game, "collections", king=0)
    assert page.h1.get_text().strip() == "اليد 1: اللطش"  # the contract is a link to its rules
    assert page.select_one("#g-tricks > legend").get_text(strip=True) == "اللطش: لمّات كل لاعب"
    button = page.select_one("button[data-save]")
    assert button.get_text(strip=True) == "راجع النقاط"
    assert button["data-save"] == "احفظ اليد 1"
    assert "تراجع" in [a.get_text(strip=True) for a in page.select("a.btn")]
    assert "مملكة سامي" in page.select_one("p.muted").get_text()


def test_entry_form__queens_questions_and_the_no_chip_in_arabic(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    page = table.open_form(game, "queens", king=0)
    # a doubling row's legend shows only its card ("Q♠×2") and says the question to a reader
    legends = [
        (f.legend.select_one(".sr") or f.legend).get_text(strip=True)
        for f in page.select("fieldset.pick")
    ]
    assert f"من أخذ {LRI}Q♠{PDI}؟" in legends and "مدبّلة؟ اضغط على صاحبها" in legends
    chips = [s.get_text(strip=True) for s in page.select("#f-q_spades_doubled_by .chips label")]
    assert chips == ["لا", *NAMES]


def test_entry_form__every_name_in_a_seat_choice_is_isolated(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    for contracts in ("trex", "queens", "king_of_hearts"):
        page = table.open_form(game, contracts, king=0)
        for chips in page.select("fieldset.seat .chips"):
            labels = [s for s in chips.select("label") if s.find("bdi") is None]
            assert [s.get_text() for s in labels] in ([], ["لا"]), (contracts, labels)
            assert [b.get_text() for b in chips.select("bdi")] == NAMES
    thrown = soup(client.get(f"/games/{game}/thrown-in?king=0"))
    assert [b.get_text() for b in thrown.select("#f-by .chips bdi")] == NAMES


def test_flash__a_saved_deal_is_announced_in_arabic(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    response = table.enter(game, standard_deal(0, "diamonds"))
    page = soup(client.get(response.headers["Location"]))
    assert flash_text(page) == "حُفظت اليد 1."


def test_flash__in_the_language_of_the_page_that_shows_it(client, table):
    """A message flashed under English and shown after the switch to Arabic is in Arabic."""
    game = table.new_game(NAMES)
    client.set_cookie("lang", "en")
    table.enter(game, standard_deal(0, "diamonds"))
    arabic(client)
    assert flash_text(soup(client.get(f"/games/{game}"))) == "حُفظت اليد 1."


def test_flash__english_unchanged(client, table):
    game = table.new_game(NAMES)
    response = table.enter(game, standard_deal(0, "diamonds"))
    assert flash_text(soup(client.get(response.headers["Location"]))) == "Deal 1 saved."


def test_flash__undo_in_arabic(client, table):
    game = table.new_game(NAMES)
    table.enter(game, standard_deal(0, "diamonds"))
    arabic(client)
    response = table.undo(game, 1)
    assert response.status_code == 303
    assert (
        flash_text(soup(client.get(response.headers["Location"])))
        == "سُحبت اليد 1. تبقى في سجل اللعبة."
    )


def test_new_game__a_wrong_pin_refused_in_arabic_next_to_its_field(client):
    arabic(client)
    response = client.post("/games/new", data={**NEW_GAME, "pin": "12"})
    assert response.status_code == 400
    page = soup(response)
    error = page.find("input", attrs={"name": "pin"}).find_previous("p", class_="error")
    assert error.get_text(strip=True) == "رمز الطاولة من 4 إلى 12 رقمًا، أو اتركه فارغًا."
    assert page.find("label", attrs={"for": "pin"}).get_text(strip=True) == "رمز الطاولة (اختياري)"


def test_new_game__an_empty_name_refused_in_arabic_next_to_its_field(client):
    arabic(client)
    response = client.post("/games/new", data={**NEW_GAME, "player_1": " "})
    assert response.status_code == 400
    error = (
        soup(response).find("input", attrs={"name": "player_1"}).find_previous("p", class_="error")
    )
    assert error.get_text(strip=True) == "اللاعب 2 بلا اسم."


def test_new_game__labels_presets_and_tonight_in_arabic(client):
    arabic(client)
    page = soup(client.get("/games/new"))
    presets = [s.get_text(strip=True) for s in page.select("#presets label")]
    assert presets == ["عادية", "كومبلكس", "شراكة", "مخصّصة"]
    assert [b["data-default"] for b in page.select("#diagram bdi[data-name]")] == [
        "اللاعب 1",
        "اللاعب 2",
        "اللاعب 3",
        "اللاعب 4",
    ]
    assert page.find("input", attrs={"name": "title"})["value"].startswith("سهرة ")
    assert page.select_one("button[type=submit]").get_text(strip=True) == "ابدأ اللعبة"


def test_scripts__the_live_preview_words_come_from_the_page(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    box = table.open_form(game, "diamonds", king=0).find(id="live-preview")
    assert json.loads(box["data-words"]) == {
        "player": "اللاعب",
        "this_deal": "هذه اليد",
        "total": "المجموع",
    }
    client.set_cookie("lang", "en")
    box = table.open_form(game, "diamonds", king=0).find(id="live-preview")
    assert json.loads(box["data-words"]) == {
        "player": "Player",
        "this_deal": "This deal",
        "total": "Total",
    }


def test_scripts__no_word_of_the_page_written_in_them():
    app_js = (ROOT / "static" / "app.js").read_text(encoding="utf-8")
    newgame_js = (ROOT / "static" / "newgame.js").read_text(encoding="utf-8")
    for words in ('"Player"', '"This deal"', '"Total"'):
        assert words not in app_js
    assert '"Player "' not in newgame_js


def test_live_preview__the_engine_problem_in_arabic(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    hidden = hidden_fields(table.open_form(game, "queens", king=0))
    fields = form_fields(standard_deal(0, "queens"))
    del fields["q_spades_taker"]
    answer = client.post(f"/games/{game}/deals/preview.json", data={**hidden, **fields}).json
    assert answer["ok"] is False
    assert answer["problems"] == [f"حدّد من أخذ {LRI}Q♠{PDI}."]


def test_entry_form__counts_that_do_not_add_up_in_arabic_next_to_the_group(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    response = table.post_entry(game, "collections", {f"tricks_{s}": "4" for s in range(4)}, king=0)
    assert response.status_code == 400
    assert error_next_to(soup(response), "g-tricks") == ["مجموع الأعداد 16، وليس 13."]


def test_error_page__not_found_in_arabic(client):
    arabic(client)
    response = client.get("/games/999999")
    assert response.status_code == 404
    page = soup(response)
    assert (page.html["lang"], page.html["dir"]) == ("ar", "rtl")
    assert page.h1.get_text(strip=True) == "غير موجود"
    assert "لا توجد لعبة رقم 999999." in page.get_text()
    assert "خطأ 404" in page.get_text()
    assert page.select_one("a.btn.primary").get_text(strip=True) == "الرئيسية"


def test_error_page__method_not_allowed_in_arabic_and_english_unchanged(client):
    arabic(client)
    page = soup(client.post("/settings"))
    assert page.h1.get_text(strip=True) == "ليس هنا"
    assert "لا يمكن استعمال هذه الصفحة بهذه الطريقة." in page.get_text()
    client.set_cookie("lang", "en")
    page = soup(client.post("/settings"))
    assert page.h1.get_text(strip=True) == "Not here"


def test_error_page__back_to_the_game_in_arabic(client, table):
    game = table.new_game(NAMES)
    arabic(client)
    response = client.get(f"/games/{game}/deals/7")
    assert response.status_code == 404
    page = soup(response)
    assert "لا توجد في هذه اللعبة يد رقم 7." in page.get_text()
    assert page.select_one("a.btn.primary").get_text(strip=True) == "العودة إلى اللعبة"


def test_new_game__a_choice_that_is_not_offered_refused_in_arabic(client):
    arabic(client)
    response = client.post("/games/new", data={**NEW_GAME, "first_king": "9"})
    assert response.status_code == 400
    assert error_next_to(soup(response), "f-first_king") == ["هذا ليس من الخيارات."]


def test_error_page__a_king_who_cannot_deal_named_in_arabic_and_isolated(client, table):
    game = table.new_game(NAMES, rotation="table-picks", preset="custom")
    table.enter(game, standard_deal(0, "diamonds"))
    for contract in ("queens", "collections", "king_of_hearts", "trex"):
        table.enter(game, standard_deal(0, contract))
    arabic(client)
    response = client.get(f"/games/{game}/deals/new?king=0")
    assert response.status_code == 400
    text = soup(response).select_one("h1 + p")
    assert " ".join(text.get_text().split()) == "لا يستطيع سامي توزيع اليد التالية."
    assert text.find("bdi").get_text() == "سامي"


def test_thrown_in__a_missing_answer_is_asked_for_in_arabic(client, table):
    """The engine names what a seat answers in English; the page asks for it in Arabic."""
    from web_helpers import hidden_fields

    game = table.new_game()
    client.set_cookie("lang", "ar")
    page = soup(client.get(f"/games/{game}/thrown-in?king=0"))
    response = client.post(
        f"/games/{game}/thrown-in",
        data={**hidden_fields(page), "reason": "misdeal", "step": "save"},
    )
    assert response.status_code == 400
    text = soup(response).get_text()
    assert "حدّد من طلب إعادة التوزيع" in text and "who asked" not in text


def test_arabic_indic_digits__in_chips_messages_flashes_and_the_live_preview(client, table):
    """A phone that reads ٠١٢٣٤٥٦٧٨٩ gets them in the count chips, in a problem, in the
    message after a save and in the live preview, not only in the grid."""
    import re

    from web_helpers import hidden_fields

    game = table.new_game()
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", "arabic")
    form = table.open_form(game, "diamonds", king=0)
    chips = [s.get_text() for s in form.select("#f-diamonds_0 .chips label")]
    assert chips[:3] == ["٠", "١", "٢"] and chips[-1] == "١٣"
    problem = table.post_entry(game, "diamonds", {f"diamonds_{s}": "4" for s in range(4)}, king=0)
    assert error_next_to(soup(problem), "g-diamonds") == ["مجموع الأعداد ١٦، وليس ١٣."]
    preview = client.post(
        f"/games/{game}/deals/preview.json",
        data={
            **hidden_fields(form),
            "diamonds_0": "4",
            "diamonds_1": "3",
            "diamonds_2": "3",
            "diamonds_3": "3",
        },
    )
    assert [r["deal_text"] for r in preview.get_json()["rows"]] == ["−٤٠", "−٣٠", "−٣٠", "−٣٠"]
    table.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    flash = soup(client.get(f"/games/{game}")).select_one(".flash").get_text()
    assert "١" in flash and not re.search("[0-9]", flash)
