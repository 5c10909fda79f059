"""Issue 37, item 2, "names stay whole in any font": on every screen that shows the four players'
names, in each test font (``FONTS``: each browser forced to one), at 360 and 390 px, in English
and Arabic, no name is split inside a word, cut, or drawn over another. A name that does not fit
wraps at a space; a word too wide for its column takes a smaller size."""

from __future__ import annotations

import pytest

from phone_helpers import (
    FONTS,
    NAMES_REPORT,
    NAME_FLOOR,
    NARROW,
    PHONE,
    SVG_OUTSIDE,
    chip,
    keep_score,
    shoot,
)

#: The issue's names: two that begin alike, a long word, Arabic names of two words that begin
#: alike, and a very long name of many words.
NAME_SETS = {
    "moh": ["Mohammed", "Mohannad", "Abdulrahman", "عبد الرحمن"],
    "abd": ["عبد الرحمن", "عبد الرحيم", "Abdulrahman bin Khalid Al Mansouri", "Mohammed"],
}

#: Each drawn name matched by *selector* (not one read out only), as drawn: which of its words
#: lie on more than one line (split), whether any of it is hidden by a box that clips (cut) or
#: lies outside the cell that holds it (out), and which other names it is drawn over.
NAMES_SCRIPT = """(selector) => {
  const hidden = el => { for (; el; el = el.parentElement) {
    const s = getComputedStyle(el);
    if (s.clipPath !== 'none' || s.visibility === 'hidden' || s.display === 'none') return true;
  } return false; };
  const names = Array.from(document.querySelectorAll(selector))
    .filter(el => el.getClientRects().length && !hidden(el));
  // across, to the pixel; up and down, a glyph's box may stand past its line by a third of
  // its height (a font's ascent and descent, larger than a tight line height): nothing drawn
  const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1
    && r.top >= b.top - r.height / 3 && r.bottom <= b.bottom + r.height / 3;
  const found = names.map(el => {
    const words = [], rects = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node; (node = walk.nextNode());) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const boxes = Array.from(range.getClientRects()).filter(r => r.width > 0);
        const tops = [];
        for (const r of boxes) if (!tops.some(t => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
        if (tops.length > 1) words.push(m[0]);
        rects.push(...boxes);
      }
    }
    let cut = false;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const b = a.getBoundingClientRect();
        if (rects.some(r => !inside(r, b))) cut = true;
      }
    }
    const cell = el.closest('th, td, label, button, a, legend, li') || el;
    const box = cell.getBoundingClientRect();
    return {text: el.textContent.trim(), split: words, cut, out: rects.some(r => !inside(r, box)),
            rects, size: parseFloat(getComputedStyle(el).fontSize)};
  });
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > (a.height + b.height) / 4;
  return found.map((f, i) => ({text: f.text, split: f.split, cut: f.cut, out: f.out, size: f.size,
    over: found.filter((g, j) => j !== i && f.rects.some(r => g.rects.some(q => over(r, q))))
      .map(g => g.text)}));
}"""


def names_drawn(page, selector: str, where: str, problems: list[str]) -> int:
    """The names *selector* matches as drawn; what is wrong with any of them goes into
    *problems*. Returns how many were drawn."""
    found = page.evaluate(NAMES_SCRIPT, selector)
    assert found, f"{where}: no name drawn for {selector}"
    for name in found:
        wrong = []
        if name["split"]:
            wrong.append(f"split inside {name['split']}")
        if name["cut"]:
            wrong.append("cut")
        if name["out"]:
            wrong.append("outside its cell")
        if name["over"]:
            wrong.append(f"drawn over {name['over']}")
        if name["size"] < NAME_FLOOR - 0.05:
            wrong.append(f"drawn at {name['size']} px")
        if wrong:
            problems.append(f"{where} {selector}: {name['text']!r} " + ", ".join(wrong))
    return len(found)


def settled(page) -> None:
    """The bar's scores drawn, after the last tap's, and static/names.js fetched where needed."""
    page.locator("#live-preview table").wait_for()
    page.wait_for_load_state("networkidle")


def all_names(page, site, game_id: int, at: str, problems: list[str]) -> tuple[int, int]:
    """The game page (the sheet's head, the first King's buttons) and the Trex, Queens,
    Collections and Diamonds forms with the bar's scores: (names drawn, names split)."""
    url = f"{site.url}/games/{game_id}"
    drawn, before = 0, len(problems)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    drawn += names_drawn(page, "#sheet thead .name", f"game page, {at}", problems)
    page.locator("details.first-king summary").tap()
    drawn += names_drawn(page, "details.first-king .options bdi", f"first King, {at}", problems)

    page.goto(f"{url}/deals/new?contracts=trex")
    for place, seat in ((1, 0), (2, 1), (3, 2)):
        page.locator(chip(f"trex_{place}", seat)).tap()
    settled(page)
    drawn += names_drawn(page, "#g-trex_order .chips bdi", f"Trex, {at}", problems)
    drawn += names_drawn(page, "#live-preview thead bdi", f"Trex's bar, {at}", problems)

    page.goto(f"{url}/deals/new?contracts=queens")
    for suit, seat in zip(("spades", "hearts", "diamonds", "clubs"), range(4)):
        page.locator(chip(f"q_{suit}_taker", seat)).tap()
    settled(page)
    drawn += names_drawn(page, "#g-queens .heads bdi", f"Queens, {at}", problems)

    for contract, key in (("collections", "tricks"), ("diamonds", "diamonds")):
        page.goto(f"{url}/deals/new?contracts={contract}")
        for seat, count in ((0, 4), (1, 3), (2, 3)):
            page.locator(chip(f"{key}_{seat}", count)).tap()
        settled(page)
        drawn += names_drawn(page, f"#g-{key} legend bdi", f"{contract}, {at}", problems)
        drawn += names_drawn(page, "#live-preview thead bdi", f"{contract}' bar, {at}", problems)
    split = sum(" split inside " in p for p in problems[before:])
    return drawn, split


@pytest.mark.parametrize("locale", ["en-GB", "ar-JO"])
@pytest.mark.parametrize("font", FONTS)
def test_issue37_2__names_are_whole_in_every_font_width_and_language(
    browsers, table_site, table_own_game, font, locale
):
    context = browsers(font).new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale=locale
    )
    context.set_default_timeout(10_000)
    problems: list[str] = []
    drawn = split = 0
    try:
        for key, names in NAME_SETS.items():
            game_id, cookie = table_own_game(names)
            context.add_cookies([cookie])
            page = context.new_page()
            keep_score(page, table_site, game_id)
            for size in (PHONE, NARROW):
                page.set_viewport_size(size)
                at = f"{font} {locale} {size['width']} px"
                d, s = all_names(page, table_site, game_id, at, problems)
                drawn, split = drawn + d, split + s
                page.goto(f"{table_site.url}/games/{game_id}")
                shoot(page, f"fonts-{key}-{font}-{locale}-{size['width']}")
            page.close()
    finally:
        context.close()
    NAMES_REPORT.append(f"{font} {locale}: {split} of {drawn} drawn names split inside a word")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("font", FONTS)
def test_issue37__the_charts_draw_every_label_inside_the_picture_in_every_font(
    browsers, site, seeded, font
):
    """The running totals (the "200" at its top under Noto Sans), the rating and the contracts'
    averages: no text outside the picture, whatever the font's height and width, in either
    direction (right to left, the totals' axis is on the right)."""
    charts = [
        f"/charts/games/{seeded.over}/running.svg",
        f"/charts/games/{seeded.long}/running.svg",
        f"/charts/players/{seeded.player}/rating.svg",
        f"/charts/players/{seeded.player}/contracts.svg",
    ]
    outside = {}
    for locale in ("en-GB", "ar-JO"):
        context = browsers(font).new_context(viewport=NARROW, locale=locale)
        context.add_cookies([seeded.cookie(site)])
        page = context.new_page()
        for chart in charts:
            assert page.goto(site.url + chart).status == 200, chart
            assert page.locator("text").count() > 3, chart
            outside[locale, chart] = page.evaluate(SVG_OUTSIDE)
        context.close()
    assert {k: v for k, v in outside.items() if v} == {}
