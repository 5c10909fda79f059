"""The printed scoresheet in Arabic: its words from the catalog, right to left with the first
player's column on the right, names and signed numbers kept whole; the English sheet as before;
the web prints in the page's language and the command line takes ``--lang``."""

from __future__ import annotations

import io
import json
import re
import subprocess

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from scorekeeper.cli import main
from scorekeeper.printing import blank_html, render_blank_pdf, render_game_pdf, scoresheet_html
from test_pdf import game_doc, make_game

LATIN = ["Aya", "Bilal", "Carla", "Dana"]
MIXED = ["ليلى", "Bilal", "محمد علي", "Dana"]
BIDI_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
ARABIC_LETTER = re.compile("[\u0600-\u06ff]")


def pdftotext(data: bytes, *args: str) -> str:
    done = subprocess.run(
        ["pdftotext", *args, "-", "-"], input=data, capture_output=True, check=True
    )
    return done.stdout.decode("utf-8")


def logical_text(data: bytes) -> str:
    """The page's text in reading order, without the direction marks pdftotext adds."""
    return BIDI_MARKS.sub("", pdftotext(data))


def squeezed(text: str) -> str:
    """*text* without spaces: pdftotext spaces mixed Arabic and digits its own way."""
    return "".join(text.split())


def holds(text: str, words: str) -> bool:
    return squeezed(words) in squeezed(text)


def word_boxes(data: bytes) -> list[tuple[str, float, float]]:
    """Every word with its left edge and its top, from ``pdftotext -bbox``."""
    page = BeautifulSoup(pdftotext(data, "-bbox"), "html.parser")
    return [(w.get_text(), float(w["xmin"]), float(w["ymin"])) for w in page.find_all("word")]


def header_x(data: bytes, names: list[str]) -> list[float]:
    """Where each player's name stands in the grid's header row (the row of its "#")."""
    boxes = word_boxes(data)
    row = next(y for word, _, y in boxes if word == "#")
    return [next(x for word, x, y in boxes if word == name and abs(y - row) < 4) for name in names]


@pytest.fixture(scope="module")
def game():
    return make_game(
        players=MIXED,
        thrown_in=[(7, "trex-twos", 1)],
        title="سهرة الجمعة",
        rules={"swap_diamonds_collections": True, "no_heart_lead": True},
    )


@pytest.fixture(scope="module")
def arabic_pdf(game):
    return render_game_pdf(game, lang="ar")


def test_arabic_sheet__headers_contracts_and_names_in_arabic(arabic_pdf, game):
    assert len(PdfReader(io.BytesIO(arabic_pdf)).pages) == 1
    text = logical_text(arabic_pdf)
    # (pdftotext splits the lam-alef ligature and moves brackets next to digits: such words
    # are checked in the HTML below)
    for words in (
        "ورقة نقاط التركس",
        "المملكة",
        "اللعبة",
        "شيخ الكبة",
        "الديناري",
        "البنات",
        "اللطش",
        "تركس",
        "المجموع النهائي",
        "الترتيب النهائي",
        "قواعد الطاولة",
        "القيم",
        "ملغاة",
        "أوراق الـ2 في التركس",
        "بطلب من",
        "مجموعها",
        "المجموع بعد المملكة 1",
        "نوفمبر",
        "بدء بالكبة",
        "الفائزون",
    ):
        assert holds(text, words), words
    for name in MIXED:
        assert name in text
    for english in (
        "Kingdom",
        "Contract",
        "Thrown in",
        "Final",
        "House rules",
        "Values",
        "Diamonds",
        "Queens",
        "Winner",
        "November",
        "asked by",
    ):
        assert english not in text, english
    html = BeautifulSoup(scoresheet_html(game, lang="ar"), "html.parser").get_text(" ")
    for words in ("المملكة 1 (مجموعها 0)", "20 نوفمبر 2026", "الملك الأول", "لا بدء بالكبة"):
        assert holds(html, words), words


def test_arabic_sheet__right_to_left_with_the_first_player_on_the_right():
    game = make_game(players=LATIN)
    english, arabic = render_game_pdf(game), render_game_pdf(game, lang="ar")
    x_en, x_ar = header_x(english, LATIN), header_x(arabic, LATIN)
    assert x_en == sorted(x_en)  # Aya, Bilal, Carla, Dana from the left
    assert x_ar == sorted(x_ar, reverse=True)  # Aya on the right, Dana on the left
    html = BeautifulSoup(scoresheet_html(game, lang="ar"), "html.parser").html
    assert (html["lang"], html["dir"]) == ("ar", "rtl")


def test_arabic_sheet__signs_stay_before_their_numbers_and_cards_read_left_to_right(
    arabic_pdf, game
):
    text = logical_text(arabic_pdf)
    # A minus or plus sign after its number ("150−", "15-") is a number turned around.
    assert not re.search(r"\d[−\-+](?!\d)", text), re.findall(r".{12}\d[−\-+](?!\d).{4}", text)
    for value in ("−150", "−75", "-15", "+200/+150/+100/+50"):
        assert value in text, value
    assert "K♥×2" in text and "♥K" not in text
    soup = BeautifulSoup(scoresheet_html(game, lang="ar"), "html.parser")
    isolated = [b.get_text() for b in soup.find_all("bdi", dir="ltr")]
    assert "K♥×2" in isolated and "−75" in isolated and "-15" in isolated
    assert {b["dir"] for b in soup.find_all("bdi") if b.get_text() == "ليلى"} == {"rtl"}


SIGNED_WORD = re.compile(r"[−+\-]?[0-9\u0660-\u0669]")
ARABIC_INDIC = str.maketrans(
    "0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"
)


def signed_words_as_seen(data: bytes) -> list[str]:
    """The printed words that hold a signed number, each as it stands on the page, from its
    left to its right (``pdftotext -bbox`` gives each word's glyphs in that order)."""
    return [
        word
        for word, _, _ in word_boxes(data)
        if SIGNED_WORD.search(word) and re.search("[−+\\-]", word)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("digits", ["western", "arabic"])
def test_arabic_sheet__every_sign_stands_on_the_left_of_its_number_as_printed(game, digits):
    """As the page shows them, not only in reading order: in the grid, the totals and the
    footer's values, "−75" and "+200/+150/+100/+50", never "75−" (a run of Arabic-Indic
    digits turns its signs and slashes around unless each number is kept left to right)."""
    data = render_game_pdf(game, lang="ar", digits=digits)
    words = signed_words_as_seen(data)
    turned = [w for w in words if re.search("[0-9\u0660-\u0669][−+\\-]", w)]
    assert turned == []
    trex = "+200/+150/+100/+50"
    assert (trex if digits == "western" else trex.translate(ARABIC_INDIC)) in words
    blank = render_blank_pdf(lang="ar", digits=digits)
    assert [
        w for w in signed_words_as_seen(blank) if re.search("[0-9\u0660-\u0669][−+\\-]", w)
    ] == []


def test_arabic_sheet__partnership_and_an_unfinished_game():
    game = make_game(players=LATIN, deals=8, rules={"partnership": True})
    text = logical_text(render_game_pdf(game, lang="ar"))
    for words in (
        "الفريق أ",
        "الفريق ب",
        "الفريقان",
        "المجموع حتى",
        "الترتيب بعد 8",
        "اللعبة لم تنتهِ",
        "شراكة",
        "المملكة 2 حتى",
    ):
        assert holds(text, words), words
    html = BeautifulSoup(scoresheet_html(game, lang="ar"), "html.parser").get_text(" ")
    for words in ("الترتيب بعد 8 أيدٍ", "جارية، سُجّلت 8 أيدٍ"):  # tanween: in the HTML
        assert holds(html, words), words


def test_english_sheet__unchanged_by_the_arabic_one(game):
    english = scoresheet_html(game)
    assert scoresheet_html(game, lang="en") == english
    soup = BeautifulSoup(english, "html.parser")
    assert (soup.html["lang"], soup.html["dir"]) == ("en", "ltr")
    assert not soup.find_all("bdi", dir="ltr", string=re.compile("♥|−"))
    text = logical_text(render_game_pdf(game))
    for words in (
        "TREX SCORESHEET",
        "Kingdom 1 (sums to 0)",
        "Final total",
        "Final standings",
        "Thrown in 2s for Trex, asked by Bilal",
        "House rules: diamonds -15, collections -10; no heart lead",
        "20 November 2026",
    ):
        assert words in " ".join(text.split()), words
    without_names = text
    for word in " ".join(MIXED + ["سهرة الجمعة"]).split():  # a name may wrap in its cell
        without_names = without_names.replace(word, "")
    assert not ARABIC_LETTER.search(without_names)


def test_blank_sheet__in_arabic_with_names():
    data = render_blank_pdf(LATIN, lang="ar", title="سهرة")
    text = logical_text(data)
    for words in (
        "ورقة نقاط التركس",
        "التاريخ",
        "المملكة 4",
        "المجموع النهائي",
        "القيم",
        "قواعد الطاولة",
        "شيخ الكبة",
        "اللطش",
    ):
        assert holds(text, words), words
    assert "Kingdom" not in text and "Date" not in text
    x = header_x(data, LATIN)
    assert x == sorted(x, reverse=True)
    html = BeautifulSoup(blank_html(LATIN, lang="ar"), "html.parser")
    assert html.html["dir"] == "rtl"
    assert "(معه 7♥)" in html.get_text() and html.find("bdi", dir="ltr", string="7♥")


def test_unknown_language__refused():
    with pytest.raises(ValueError):
        render_blank_pdf(lang="fr")


def test_web__the_sheet_in_the_page_language(table, client):
    game_id = table.new_game(names=["ليلى", "Bilal", "Carla", "Dana"])
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    english = logical_text(client.get(f"/games/{game_id}/sheet.pdf").data)
    assert "TREX SCORESHEET" in english and "ورقة" not in english
    client.set_cookie("lang", "ar")
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    arabic = logical_text(response.data)
    assert "ورقة نقاط التركس" in arabic and "الديناري" in arabic and "ليلى" in arabic
    assert "SCORESHEET" not in arabic
    x = header_x(response.data, ["Bilal", "Dana"])
    assert x[0] > x[1]
    blank = logical_text(client.get("/sheet/blank.pdf").data)
    assert "المجموع النهائي" in blank and "Final total" not in blank


def test_web__a_blank_sheet_refused_in_arabic(client):
    client.set_cookie("lang", "ar")
    response = client.get("/sheet/blank.pdf?names=Aya&names=Bilal")
    assert response.status_code == 400
    assert "الورقة الفارغة تأخذ أربعة أسماء" in response.get_data(as_text=True)


def test_cli__lang_ar(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_doc(players=LATIN)), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    assert main(["pdf", "--file", str(path), "--lang", "ar", "-o", str(out)]) == 0
    text = logical_text(out.read_bytes())
    assert "ورقة نقاط التركس" in text and "Kingdom" not in text
    x = header_x(out.read_bytes(), LATIN)
    assert x == sorted(x, reverse=True)
    blank = tmp_path / "blank.pdf"
    assert main(["blank-sheet", "--lang", "ar", "-o", str(blank)]) == 0
    assert "المجموع النهائي" in logical_text(blank.read_bytes())
    assert main(["blank-sheet", "-o", str(blank)]) == 0
    assert "Final total" in logical_text(blank.read_bytes())
    with pytest.raises(SystemExit):
        main(["blank-sheet", "--lang", "fr", "-o", str(blank)])


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_arabic_sheets__many_redeals_and_long_names_still_fit_one_page(paper):
    names = [
        "آية عبد الرحمن خليل المصري",
        "Bilal Mahmoud Haddad-Nassar",
        "كارلا عبد الرحمن الخوري الحلبي",
        "دانة جورج سعادة فرنجية",
    ]
    game = make_game(
        players=names,
        thrown_in=[(0, "kh-redeal", 1), (7, "trex-twos", 1), (12, "misdeal", 3), (16, "other", 0)],
        rules={"partnership": True},
    )
    data = render_game_pdf(game, paper=paper, lang="ar")
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    text = logical_text(data)
    for words in ("خطأ في التوزيع", "سبب آخر", "إعادة بسبب شيخ الكبة"):
        assert holds(text, words), words
    assert len(PdfReader(io.BytesIO(render_blank_pdf(names, paper=paper, lang="ar"))).pages) == 1


def test_issue39_2__the_arabic_sheet_keeps_the_usual_word_whatever_the_words_cookie(table, client):
    """The table's word for the King of Hearts (here the older ``words`` cookie's) is on the
    page, never on the printed sheet: a cookie does not make a render (issue 39, item 2)."""
    game_id = table.new_game()
    client.set_cookie("lang", "ar")
    client.set_cookie("words", "khityar")
    assert "الختيار" in client.get(f"/games/{game_id}").get_data(as_text=True)
    text = logical_text(client.get(f"/games/{game_id}/sheet.pdf").data)
    assert "شيخ الكبة" in text and "الختيار" not in text
    text = logical_text(client.get("/sheet/blank.pdf").data)
    assert "شيخ الكبة" in text and "الختيار" not in text


ARABIC_DIGIT = re.compile("[\u0660-\u0669]")


def test_arabic_digits__every_number_on_the_sheet_and_none_left_western(game):
    html = scoresheet_html(game, lang="ar", digits="arabic")
    body = BeautifulSoup(html, "html.parser").body.get_text()
    assert ARABIC_DIGIT.search(body) and not re.search("[0-9]", body)
    assert "@page { size: A4 portrait; }" in html  # the style keeps its own numbers
    data = render_game_pdf(game, lang="ar", digits="arabic")
    text = logical_text(data)
    assert "٢٠٠" in text and not re.search("[0-9]", text)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    with pytest.raises(ValueError):
        render_game_pdf(game, lang="ar", digits="roman")


@pytest.mark.slow
def test_arabic_digits__as_the_phone_reads_them_and_from_the_command_line(table, client, tmp_path):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    assert not ARABIC_DIGIT.search(logical_text(client.get(f"/games/{game_id}/sheet.pdf").data))
    client.set_cookie("digits", "arabic")
    text = logical_text(client.get(f"/games/{game_id}/sheet.pdf").data)
    assert "٤٠" in text  # the 4 diamonds' −40
    assert not re.search("[0-9]", BIDI_MARKS.sub("", text))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_doc(players=LATIN)), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    assert main(["pdf", "--file", str(path), "--digits", "arabic", "-o", str(out)]) == 0
    assert ARABIC_DIGIT.search(logical_text(out.read_bytes()))
