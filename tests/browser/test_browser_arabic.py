"""One whole game in Arabic on a phone whose browser prefers Arabic: the same deals as the
English game, entered right to left, every message the table reads in Arabic, the totals the
engine's, and the scoresheet printed in Arabic.

The Arabic the test expects is read from the app's own catalog (``ar``): a message that has no
Arabic translation fails here rather than passing as English.
"""

from __future__ import annotations

import io
import re

from babel.support import Translations
from pypdf import PdfReader

from scorekeeper.engine import read_deal, score_deal
from scorekeeper.engine.rules import HouseRules
from scorekeeper.languages import TRANSLATIONS

from phone_helpers import (
    ARTIFACTS,
    Thumb,
    chip,
    engine_game,
    entry_taps,
    shoot,
    standings,
    wait_for_preview,
)
from played import CORRECTED, GAME
from test_pdf_arabic import logical_text

#: Arabic and Latin names, and one mixed, as tables write them.
NAMES = ["سامي", "Nour", "ليلى Sam", "هالة"]
_CATALOG = Translations.load(str(TRANSLATIONS), ["ar"])


def ar(message: str, **params) -> str:
    """*message* as the Arabic pages say it; fails when the catalog has no Arabic for it."""
    text = _CATALOG.gettext(message)
    assert text != message, f"no Arabic for {message!r}"
    return text % params if params else text


def arabic_phone(new_phone):
    """A phone whose browser asks for Arabic first (no cookie: the app follows the browser)."""
    return new_phone(locale="ar-JO")


def enter_deal(page, thumb: Thumb, number_: int, entered: dict) -> None:
    contract = entered["contracts"][0]
    thumb.tap(f'#next .options a[href*="contracts={contract}"]')
    assert page.locator("html").get_attribute("dir") == "rtl"
    for target in entry_taps(entered):
        thumb.tap(target)
    record, _ = read_deal(entered, 1, NAMES)
    wait_for_preview(page, score_deal(record, HouseRules()))
    if number_ == 3:
        shoot(page, "ar-entry-queens")
    thumb.tap("form[data-preview] button[name=step]")
    page.locator(".flash").get_by_text(ar("Deal %(number)s saved.", number=number_)).wait_for()


def throw_in(page, thumb: Thumb, number_: int, entered: dict) -> None:
    thumb.tap('#next a[href*="/thrown-in"]')
    shoot(page, "ar-thrown-in")
    thumb.tap(chip("reason", entered["thrown_in"]["reason"]))
    thumb.tap(chip("by", entered["thrown_in"]["by"]))
    thumb.tap("button[name=step]")
    page.locator(".flash").get_by_text(
        ar("Deal %(number)s: thrown in. The King chooses again.", number=number_)
    ).wait_for()


def correct_deal(page, thumb: Thumb, number_: int, was: dict, now: dict) -> None:
    thumb.tap(f'#kingdom-1 th a[href$="/deals/{number_}"]')
    thumb.tap(f'a.btn[href$="/deals/{number_}/edit"]')
    for s, (old, new) in enumerate(zip(was["diamonds"], now["diamonds"])):
        if old != new:
            thumb.tap(chip(f"diamonds_{s}", new))
    record, _ = read_deal(now, 1, NAMES)
    wait_for_preview(page, score_deal(record, HouseRules()))
    thumb.tap("form[data-preview] button[name=step]")
    page.locator(".flash").get_by_text(
        ar("Deal %(number)s corrected. The earlier version is in the history.", number=number_)
    ).wait_for()


def test_a_whole_game_in_arabic_on_a_phone(site, new_phone):
    page = arabic_phone(new_phone)
    thumb = Thumb(page)
    page.goto(site.url + "/games/new")
    html = page.locator("html")
    assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("ar", "rtl")
    assert ar("New game") in page.locator("h1").inner_text()
    for seat, name in enumerate(NAMES):
        page.fill(f'input[name="player_{seat}"]', name)
    thumb.tap(chip("first_king", 0))
    shoot(page, "ar-new-game")
    thumb.tap("form button[type=submit]:not([name])")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    assert ar("Total") in page.locator("main table.sheet").inner_text()

    played = []
    for number_, entered in enumerate(GAME, start=1):
        if "thrown_in" in entered:
            throw_in(page, thumb, number_, entered)
        else:
            enter_deal(page, thumb, number_, entered)
        played.append(entered)
        if number_ == 1:
            shoot(page, "ar-game-after-first-deal")
        if number_ == 12:
            position, now = CORRECTED
            correct_deal(page, thumb, position, played[position - 1], now)
            played[position - 1] = now

    _, scored = engine_game(NAMES, played, rules={})
    assert scored.is_over
    assert standings(page) == dict(zip(NAMES, scored.totals))
    over = page.locator("#game-over").inner_text()
    assert ar("Game over") in over
    assert all(NAMES[s] in over for s in scored.winners)
    shoot(page, "ar-game-over")

    # the scoresheet comes out in Arabic, from the page's own link
    with page.expect_download() as download:
        thumb.tap('a[href$="/sheet.pdf"]')
    pdf = ARTIFACTS / "ar-game-scoresheet.pdf"
    download.value.save_as(pdf)
    data = pdf.read_bytes()
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    text = logical_text(data)
    assert ar("Trex scoresheet") in text and ar("Final total") in text
    assert "Nour" in text and "Kingdom" not in text and "Final total" not in text

    # the game's history, in Arabic, keeps the corrected deal
    thumb.tap(f'.actions a[href$="/games/{page.url.rsplit("/", 1)[1]}/history"]')
    shoot(page, "ar-game-history")
    assert ar("Deal %(number)s", number=len(GAME)) in page.locator("main").inner_text()


def test_long_names_in_the_sheet_read_whole_in_their_own_direction(table_site, table_new_phone):
    """A Latin name too long for its column reads whole on an Arabic page, on more lines, left
    to right, as an Arabic one does right to left: no name is cut (issue 28: two names that
    begin alike would look alike once cut)."""
    from web_helpers import Table

    names = ["Christopher Alexander", "عبد الرحمن الخوري", "Bilal", "Dana"]
    game_id = Table(table_site.client()).new_game(names)
    page = arabic_phone(table_new_phone)
    page.goto(f"{table_site.url}/games/{game_id}")
    cut = page.eval_on_selector_all(
        "table.sheet thead bdi",
        """cells => cells.map(b => {
        const style = getComputedStyle(b);
        const cell = b.parentElement.getBoundingClientRect(), r = b.getBoundingClientRect();
        return [b.textContent, style.direction, b.scrollWidth > b.clientWidth,
                r.left >= cell.left - 1 && r.right <= cell.right + 1, r.height > 30];
    })""",
    )
    by_name = {name: rest for name, *rest in cut}
    assert by_name["Christopher Alexander"] == ["ltr", False, True, True]  # whole, two lines
    assert by_name["عبد الرحمن الخوري"] == ["rtl", False, True, True]
    shoot(page, "ar-long-names")


def test_numbers_stand_under_their_players_names_right_to_left(
    table_site, table_seeded, table_new_phone
):
    """In the Arabic sheet each column's numbers are centred under its player's name (they
    stood about 40 px to the side of it in the kingdom grid)."""
    page = arabic_phone(table_new_phone)
    page.goto(f"{table_site.url}/games/{table_seeded.over}")
    centres = page.evaluate("""() => {
      const mid = el => { const r = el.getBoundingClientRect(); return (r.left + r.right) / 2; };
      const heads = Array.from(document.querySelectorAll('table.sheet thead tr:first-child th bdi'));
      const rows = Array.from(document.querySelectorAll('table.sheet tbody tr'))
        .filter(tr => tr.querySelectorAll('td > span').length === 4);
      return {heads: heads.map(mid),
              cells: rows.map(tr => Array.from(tr.querySelectorAll('td > span')).map(mid))};
    }""")
    heads = centres["heads"]
    assert heads == sorted(heads, reverse=True)  # the first player on the right
    assert centres["cells"]
    off = [abs(x - heads[i]) for row in centres["cells"] for i, x in enumerate(row)]
    assert max(off) <= 2, max(off)


#: Each change of rating on the finished game's page: where its sign is drawn, and where its
#: digits are (the sign must stand to the left of them, touching, as "+81" and "−25" read).
SIGNS = """() => Array.from(document.querySelectorAll('#rating-changes .change')).map(box => {
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const glyphs = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      glyphs.push({c: node.data[i], left: r.left, right: r.right});
    }
  }
  const sign = glyphs.find(g => '+−-'.includes(g.c));
  const digits = glyphs.filter(g => /[0-9\u0660-\u0669]/.test(g.c));
  return {text: box.textContent, sign: sign && sign.right,
          digits: digits.length ? Math.min(...digits.map(g => g.left)) : null};
})"""


def test_issue37_4__the_rating_line_keeps_each_sign_before_its_number_in_arabic(
    site, seeded, new_phone
):
    """Each sign stays on the left of its digits, "+121" beside an Arabic name as beside a
    Latin one; by the markup itself, so also where the stylesheet did not load."""
    from played import GAME
    from web_helpers import Table

    table = Table(site.seed.test_client())
    game_id = table.new_game(["Aya", "Bilal", "Carla", "ليلى"])
    table.play(game_id, GAME)
    for styled in (True, False):
        page = new_phone(locale="ar-JO")
        if not styled:
            page.route("**/*.css", lambda route: route.abort())
        page.goto(f"{site.url}/games/{game_id}")
        assert page.locator("html").get_attribute("dir") == "rtl"
        changes = page.evaluate(SIGNS)
        assert len(changes) == 4
        for change in changes:
            if change["sign"] is not None:  # a change of 0 has no sign
                assert abs(change["sign"] - change["digits"]) < 2, (styled, change)
        shoot(page, f"rating-changes-ar{'' if styled else '-unstyled'}")
