"""The pages in a real browser (Debian's Chromium through Playwright), phone-sized: the small
scripts, no sideways scrolling at 360 px, 44 px targets, 16 px text, AA contrast light and dark."""
from __future__ import annotations

import shutil
import threading

import pytest

from scorekeeper.web import create_app

from web_helpers import COMPLEX, Table

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")

#: Every colour the stylesheet puts text on, measured in the browser (WCAG 2 formula).
CONTRAST_SCRIPT = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = c => { const v = c.slice(0, 3).map(x => { x /= 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const background = el => { for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c; } return [255, 255, 255]; };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    const text = Array.from(el.childNodes).filter(n => n.nodeType === 3)
      .map(n => n.textContent.trim()).join('');
    if (!text || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.opacity === '0') continue;
    const a = lum(rgb(style.color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    if (ratio < need) bad.push(`${el.tagName} "${text.slice(0, 20)}" ${ratio.toFixed(2)}`);
  }
  return bad;
}"""

LAYOUT_SCRIPT = """() => {
  const small = [], tiny = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && el.getClientRects().length && parseFloat(getComputedStyle(el).fontSize) < 16)
      small.push(el.tagName);
  }
  const targets = 'a, button, summary, select, .chips label, label.check, ' +
                  'input[type=text], input[type=date]';
  for (const el of document.querySelectorAll(targets)) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.width < 44 || r.height < 44))
      tiny.push(`${el.tagName} ${el.textContent.trim().slice(0, 15)} ${r.width}x${r.height}`);
  }
  return {width: document.documentElement.scrollWidth, small, tiny};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A live server (waitress, as in production) with a game and a Complex game in it."""
    from waitress import create_server

    tmp = tmp_path_factory.mktemp("browser")
    app = create_app({"DATABASE": str(tmp / "b.sqlite3"), "INSTANCE_PATH": str(tmp / "i"),
                      "WTF_CSRF_ENABLED": False})
    table = Table(app.test_client())
    game = table.new_game(["Aya", "Bilal", "Carla", "ليلى"])
    table.enter(game, {"king": 0, "contracts": ["king_of_hearts"],
                       "king_of_hearts": {"taker": 1, "doubled_by": 0}})
    table.new_game(["Rami", "Nour", "Sami", "Hala"], preset="custom", doubling="y",
                   self_capture="leader-credit", combining="complex")
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    yield page
    context.close()


PAGES = ["/", "/games/new", "/games/1", "/games/1/deals/new?contracts=diamonds",
         "/games/1/deals/new?contracts=trex", "/games/1/deals/new?contracts=queens",
         f"/games/2/deals/new?contracts={COMPLEX}", "/games/1/deals/1", "/games/1/deals/1/undo",
         "/games/1/thrown-in", "/games/1/history", "/games/9"]


@pytest.mark.parametrize("path", PAGES)
def test_phone__no_sideways_scroll_big_targets_readable_text(site, phone, path):
    phone.goto(site + path)
    found = phone.evaluate(LAYOUT_SCRIPT)
    assert found["width"] <= 360
    assert found["small"] == []
    assert found["tiny"] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["/", "/games/new", "/games/1", "/games/1/deals/1",
                                  "/games/1/deals/new?contracts=diamonds"])
def test_contrast__wcag_aa_light_and_dark(site, browser, scheme, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    page.goto(site + path)
    page.check('input[name="diamonds_1"][value="3"]') if "diamonds" in path else None
    assert page.evaluate(CONTRAST_SCRIPT) == []
    context.close()


def test_script__fourth_count_fills_itself_in(site, phone):
    phone.goto(site + "/games/1/deals/new?contracts=diamonds")
    for seat, value in ((0, 4), (1, 2), (3, 1)):
        phone.click(f'#f-diamonds_{seat} label:has(input[value="{value}"])')
    assert phone.is_checked('input[name="diamonds_2"][value="6"]')
    phone.click('#f-diamonds_0 label:has(input[value="5"])')  # a change re-fills it
    assert phone.is_checked('input[name="diamonds_2"][value="5"]')
    phone.click('button[value="preview"]')
    assert "Diamonds: Aya 5, Bilal 2, Carla 5, ليلى 1" in phone.inner_text("main")


def test_script__last_place_fills_itself_in(site, phone):
    phone.goto(site + "/games/1/deals/new?contracts=trex")
    for place, seat in ((1, 2), (2, 0), (3, 3)):
        phone.click(f'#f-trex_{place} label:has(input[value="{seat}"])')
    assert phone.is_checked('input[name="trex_4"][value="1"]')


def test_script__who_led_shows_only_when_the_holder_took_it(site, phone):
    phone.goto(site + f"/games/2/deals/new?contracts={COMPLEX}")
    leader = phone.locator('[data-leader="kh"]')
    assert leader.is_hidden()
    phone.click('#f-kh_taker label:has(input[value="2"])')
    phone.click('[data-capture="kh"] summary')
    phone.click('#f-kh_doubled_by label:has(input[value="2"])')
    assert leader.is_visible()
    phone.click('#f-kh_doubled_by label:has(input[value="1"])')
    assert leader.is_hidden()


def test_script__presets_fill_the_settings_and_names_fill_the_diagram(site, phone):
    phone.goto(site + "/games/new")
    phone.click('#presets label:has(input[value="complex"])')
    phone.click("#settings summary")
    assert phone.is_checked('input[name="combining"][value="complex"]')
    phone.click('#f-rotation label:has(input[value="table-picks"])')
    assert phone.is_checked('#presets input[value="custom"]')
    phone.fill('input[name="player_1"]', "نور")
    assert phone.inner_text('[data-name="1"]') == "نور"
    assert phone.inner_text('#f-first_king label:has(input[value="1"])') == "نور"


def test_without_javascript__the_whole_entry_still_works(site, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  java_script_enabled=False)
    page = context.new_page()
    page.goto(site + "/games/1")
    page.click("#next .options a:text-is(\"Trex\")")
    for place, seat in ((1, 3), (2, 2), (3, 1)):
        page.click(f'#f-trex_{place} label:has(input[value="{seat}"])')
    page.click('button[value="preview"]')
    assert "last Aya" in page.inner_text("main")
    page.click('button[value="save"]')
    assert "Deal 2 saved." in page.inner_text("main")
    context.close()


def test_script__fixed_order_choices_only_when_ticked(site, phone):
    phone.goto(site + "/games/new")
    phone.click("#settings summary")
    order = phone.locator('[data-show-if="fixed_order_on"]')
    assert order.is_hidden()
    phone.click('label.check:has(input[name="fixed_order_on"])')
    assert order.is_visible()
    assert phone.is_checked('#presets input[value="custom"]')
    phone.click('#presets label:has(input[value="standard"])')
    assert order.is_hidden() and not phone.is_checked('input[name="fixed_order_on"]')
