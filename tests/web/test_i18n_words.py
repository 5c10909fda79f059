"""A table's own words for the contracts (a setting kept on the phone, per language): the pages
and the rules line use them, the printed sheet keeps the usual words; a word that can't be is
refused next to its field with what was typed kept, and nothing is kept."""

from __future__ import annotations

import io

from pypdf import PdfReader

from web_helpers import error_next_to, soup


def save_words(client, **words):
    page = soup(client.get("/settings?next=/"))
    form = page.select_one("#words form")
    data = {i["name"]: i.get("value", "") for i in form.select("input")}
    data.update(words)
    return client.post(form["action"], data=data)


def test_settings__offers_what_tables_say_for_each_contract(client):
    client.set_cookie("lang", "ar")
    page = soup(client.get("/settings"))
    offered = {o["value"] for o in page.select("#words datalist option")}
    assert {"الختيار", "الدينار", "التريكس", "شيخ الكبة"} <= offered
    client.set_cookie("lang", "en")
    page = soup(client.get("/settings"))
    assert {"Sheikh Koobbah", "Dinari", "Banat", "Eltoosh", "Trix"} <= {
        o["value"] for o in page.select("#words datalist option")
    }


def test_own_words__used_on_the_game_page_and_only_in_their_language(client, table):
    game = table.new_game()
    client.set_cookie("lang", "ar")
    response = save_words(client, king_of_hearts="الختيار", diamonds="الدينار")
    assert response.status_code == 303
    page = soup(client.get(f"/games/{game}")).get_text()
    assert "الختيار" in page and "الدينار" in page and "الديناري" not in page
    client.set_cookie("lang", "en")
    page = soup(client.get(f"/games/{game}")).get_text()
    assert "Diamonds" in page and "الدينار" not in page


def test_own_words__in_english_too_and_in_the_rules_line(client, table):
    game = table.new_game(
        preset="custom",
        fixed_order_on="y",
        fixed_1="trex",
        fixed_2="king_of_hearts",
        fixed_3="diamonds",
        fixed_4="queens",
        fixed_5="collections",
    )
    save_words(client, trex="Trix", queens="Banat")
    page = soup(client.get(f"/games/{game}"))
    assert "Trix" in page.select_one("p.muted").get_text()
    assert "Banat" in page.get_text()


def test_issue39_2__the_printed_sheet_keeps_the_usual_words_whatever_the_cookie(client, table):
    """The table's words are a cookie's free text: the sheet, a render, never takes them
    (issue 39, item 2), while the page does."""
    game = table.new_game()
    save_words(client, collections="Eltoosh")
    assert "Eltoosh" in soup(client.get(f"/games/{game}")).get_text()
    pdf = client.get(f"/games/{game}/sheet.pdf")
    text = PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    assert "Collections" in text and "Eltoosh" not in text
    blank = client.get("/sheet/blank.pdf")
    text = PdfReader(io.BytesIO(blank.data)).pages[0].extract_text()
    assert "Collections" in text and "Eltoosh" not in text
    assert "Printed sheets keep the usual names." in soup(client.get("/settings")).get_text()
    client.set_cookie("lang", "ar")
    assert "تبقى الأسماء المعتادة على الأوراق المطبوعة." in soup(client.get("/settings")).get_text()


def test_own_words__too_long_is_refused_next_to_its_field_with_the_input_kept(client):
    client.set_cookie("lang", "ar")
    long = "ط" * 30
    response = save_words(client, queens=long, trex="التريكس")
    assert response.status_code == 400
    page = soup(response)
    assert error_next_to(page, "g-queens") == ["24 حرفًا على الأكثر"]
    assert page.select_one("#queens")["value"] == long
    assert page.select_one("#trex")["value"] == "التريكس"
    assert not any(c.key.startswith("words_") for c in client._cookies.values())


def test_own_words__empty_means_the_usual_word_again(client, table):
    game = table.new_game()
    save_words(client, diamonds="Dinari")
    assert "Dinari" in soup(client.get(f"/games/{game}")).get_text()
    save_words(client, diamonds="")
    text = soup(client.get(f"/games/{game}")).get_text()
    assert "Dinari" not in text and "Diamonds" in text


def test_own_words__a_tampered_cookie_is_read_safely(client, table):
    game = table.new_game()
    client.set_cookie("words_en", "diamonds=%00bad&nonsense=x&queens=" + "Q" * 99 + "&trex=Trix")
    response = client.get(f"/games/{game}")
    assert response.status_code == 200
    text = soup(response).get_text()
    assert "Trix" in text and "Diamonds" in text and "Queens" in text
