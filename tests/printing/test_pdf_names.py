"""Issue 37, item 2, on paper: the printed sheet prints every name whole, in English and in
Arabic, whatever font the machine has (WeasyPrint reads the machine's fontconfig; the sheet
prints in its shipped font alone). A word too wide for its column prints smaller, never split
("Mohamme / d")."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from pypdf import PdfReader

from font_setup import FONTS, font_env
from test_pdf import game_doc
from test_pdf_arabic import BIDI_MARKS, word_boxes

from scorekeeper.printing.namefit import FLOOR, name_fit

NAMES = ["Mohammed", "Abdulrahman bin Khalid Al Mansouri", "عبد الرحمن", "Mohannad"]
RENDER = (
    "import sys, json; from scorekeeper.engine import read_game; "
    "from scorekeeper.printing import render_game_pdf; "
    "games = {k: read_game(d) for k, d in json.loads(sys.argv[1]).items()}; "
    "[open(f'{sys.argv[2]}-{k}-{lang}.pdf', 'wb').write(render_game_pdf(g, lang=lang)) "
    "for k, g in games.items() for lang in ('en', 'ar')]"
)


def words_of(names: list[str]) -> set[str]:
    """Each word of *names*, and backwards (pdftotext may read Arabic in the order drawn)."""
    return {w for name in names for word in name.split() for w in (word, word[::-1])}


def printed_words(data: bytes) -> set[str]:
    return {BIDI_MARKS.sub("", w).strip("(),.:;") for w, _, _ in word_boxes(data)}


def fragments(data: bytes, names: list[str], sheet: set[str]) -> list[str]:
    """Printed words that are a piece of a name's word and no word of their own nor of the
    sheet's (*sheet*: the words of the same sheet with short names): a name split inside a
    word (pdftotext reads a word broken across lines as two)."""
    whole = words_of(names)
    return sorted(
        w for w in printed_words(data) - whole - sheet if w and any(w in n for n in whole)
    )


def printed_fonts(data: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(data))
    return {
        font["/BaseFont"].split("+")[-1]
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }


@pytest.mark.slow
@pytest.mark.parametrize("font", FONTS)
def test_issue37_2__the_printed_sheet_prints_every_name_whole_in_every_font(tmp_path, font):
    docs = {
        "names": game_doc(players=NAMES, title="Names"),
        "short": game_doc(players=["Aya", "Bilal", "Carla", "Dana"], title="Names"),
    }
    out = tmp_path / "sheet"
    subprocess.run(
        [sys.executable, "-W", "ignore", "-c", RENDER, json.dumps(docs), str(out)],
        env=font_env(font),
        check=True,
    )
    for lang in ("en", "ar"):
        data = (tmp_path / f"sheet-names-{lang}.pdf").read_bytes()
        sheet = printed_words((tmp_path / f"sheet-short-{lang}.pdf").read_bytes())
        printed = printed_words(data)
        missing = [w for name in NAMES for w in name.split() if not {w, w[::-1]} & printed]
        assert missing == [], lang
        assert fragments(data, NAMES, sheet) == [], lang
        fonts = printed_fonts(data)
        assert fonts <= {"Trex-Sheet", "Trex-Sheet-Bold"}, (lang, fonts)


def test_issue37_2__a_word_too_wide_for_its_column_prints_smaller_never_split():
    assert name_fit("Aya", "player") == (100, True)
    size, fits = name_fit("Abdulrahman", "player")
    assert FLOOR <= size < 100 and fits
    assert name_fit("Abdulrahman bin Khalid", "king")[1]
    size, fits = name_fit("W" * 40, "player")  # no room at any size: breaks where it must
    assert (size, fits) == (FLOOR, False)
