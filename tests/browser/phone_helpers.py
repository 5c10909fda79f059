"""What the browser tests measure on a page, and a thumb that counts its taps."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine import read_game, score_game
from scorekeeper.engine.contracts import QUEEN_SUITS
from scorekeeper.engine.gamefile import FORMAT

from font_setup import DEFAULT_FONT, FONTS, font_env
from web_helpers import edit_link

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Every family a page asks for by name or kind: each is drawn in the forced font.
ASKED_FAMILIES = ["system-ui", "-apple-system", "Segoe UI", "Roboto", "Noto Sans", "sans-serif"]
#: What a page draws a Latin name and an Arabic name in (CDP's platform fonts for each).
FONT_USED_SCRIPT = """(families) => families.map(f => {
  const p = document.body.appendChild(document.createElement('p'));
  p.style.fontFamily = f; p.id = 'f' + Math.random().toString(36).slice(2);
  p.innerHTML = '<span>Mohammed</span> <span lang="ar">عبد الرحمن</span>';
  return p.id;
})"""
#: A phone held in portrait: a 390 x 844 touch screen (an iPhone 12 to 15, a Pixel's size),
#: and a small one, 360 x 740 (a Galaxy S8 or S9, many Android phones).
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
#: Lines for the end-of-run summary: the taps measured per contract, the weight of each page.
TAP_REPORT: list[str] = []
WEIGHT_REPORT: dict[str, int] = {}
#: Where the entry screen's Save and scores end on each phone, and how long the game page is.
FIT_REPORT: list[str] = []
#: How long each deal waiting offline took to be stored once the signal came back.
BACK_ONLINE_REPORT: list[str] = []
#: How many of the names drawn in each font and language were split inside a word.
NAMES_REPORT: list[str] = []
PAGE_BUDGET = 40 * 1024
MIN_TARGET = 44
MIN_TEXT = 16

#: The smallest a name too wide for its cell is drawn (static/app.js's FLOOR): issue 37 has it
#: smaller rather than split inside a word.
NAME_FLOOR = 9
#: Any page scrolling sideways, text under 16 px (a name app.js made smaller to fit its cell
#: whole, marked data-fit, under NAME_FLOOR px), and anything one can tap under 44 x 44 px.
LAYOUT_SCRIPT = (
    """() => {
  const shown = el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
  const small = [], tiny = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    const least = el.closest('[data-fit]') ? %d : 16;
    if (own && shown(el) && size < least) small.push(`${el.tagName} "${el.textContent.trim()
      .slice(0, 20)}" ${size}px`);
  }
  const targets = 'a[href], button, summary, select, textarea, label.check, .chips label, ' +
                  'input:not([type=hidden]):not([type=radio]):not([type=checkbox]), ' +
                  '[tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll(targets)) {
    if (!shown(el) || el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (Math.round(r.width) < 44 || Math.round(r.height) < 44)
      tiny.push(`${el.tagName} "${el.textContent.trim().slice(0, 20)}" ` +
                `${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
  }
  const width = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  return {width, viewport: window.innerWidth, small, tiny};
}"""
    % NAME_FLOOR
)

#: Text an SVG document draws outside its own picture (its viewBox), where no one sees it.
SVG_OUTSIDE = """() => {
  const svg = document.documentElement, box = svg.viewBox.baseVal;
  const into = svg.getScreenCTM().inverse();
  return Array.from(svg.querySelectorAll('text')).filter(t => {
    const b = t.getBBox(), m = into.multiply(t.getScreenCTM());
    const a = new DOMPoint(b.x, b.y).matrixTransform(m);
    const z = new DOMPoint(b.x + b.width, b.y + b.height).matrixTransform(m);
    return b.width && (Math.min(a.x, z.x) < box.x - 1 || Math.min(a.y, z.y) < box.y - 1
      || Math.max(a.x, z.x) > box.x + box.width + 1 || Math.max(a.y, z.y) > box.y + box.height + 1);
  }).map(t => t.textContent);
}"""
#: WCAG 2 contrast: text against what is behind it (4.5:1, large text 3:1); the edge of a
#: control against its surroundings when the edge is all that shows it (3:1).
CONTRAST_SCRIPT = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = c => { const v = c.slice(0, 3).map(x => { x /= 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const opaque = c => c.length === 3 || c[3] > 0;
  const background = el => { for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (opaque(c)) return c; } return [255, 255, 255]; };
  const ratio = (a, b) => { a = lum(a); b = lum(b);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
  const shown = el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
    && getComputedStyle(el).opacity !== '0';
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    const text = Array.from(el.childNodes).filter(n => n.nodeType === 3)
      .map(n => n.textContent.trim()).join('');
    const field = el.matches('input[type=text], input[type=date], input[type=search], select');
    if ((!text && !field) || !shown(el)) continue;
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    const r = ratio(rgb(style.color), background(el));
    if (r < need) bad.push(`text ${el.tagName} "${(text || el.value).slice(0, 20)}" ${r.toFixed(2)}`);
  }
  const controls = '.chips label, .btn, button, input[type=text], input[type=date], select';
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el)) continue;
    const style = getComputedStyle(el);
    const around = background(el.parentElement);
    const own = rgb(style.backgroundColor);
    if (opaque(own) && ratio(own, around) >= 3) continue;
    if (!parseFloat(style.borderTopWidth)) continue;
    const r = ratio(rgb(style.borderTopColor), around);
    if (r < 3) bad.push(`edge ${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${r.toFixed(2)}`);
  }
  return bad;
}"""


def launch_chromium(browser_type, font: str = DEFAULT_FONT):
    """Debian's Chromium drawing every page in *font* (``FONTS``); fails, saying what to
    install, when that font is not what it draws with."""
    chromium = browser_type.launch(
        executable_path=chromium_path(), args=CHROMIUM_ARGS, env=font_env(font)
    )
    used = fonts_used(chromium)
    latin, arabic, package = FONTS[font]
    wanted = {(f, "Mohammed"): latin for f in ASKED_FAMILIES}
    wanted |= {(f, "عبد الرحمن"): arabic for f in ASKED_FAMILIES}
    if used != wanted:
        chromium.close()
        pytest.fail(
            f"Chromium does not draw in {latin} and {arabic}: {package} is missing "
            f"(`bash tests/run.sh` installs it; or apt-get install {package}). "
            f"Drawn: {used}",
            pytrace=False,
        )
    return chromium


def fonts_used(chromium) -> dict[tuple[str, str], str]:
    """(family asked for, text) -> the font Chromium draws it in, for ``ASKED_FAMILIES``."""
    page = chromium.new_page()
    try:
        ids = page.evaluate(FONT_USED_SCRIPT, ASKED_FAMILIES)
        cdp = page.context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        used = {}
        for family, id_ in zip(ASKED_FAMILIES, ids):
            for n, text in ((1, "Mohammed"), (2, "عبد الرحمن")):
                node = cdp.send(
                    "DOM.querySelector", {"nodeId": root, "selector": f"#{id_} span:nth-child({n})"}
                )["nodeId"]
                for _ in range(50):  # a loaded machine may not have laid the text out yet
                    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
                    if fonts:
                        break
                    page.wait_for_timeout(100)
                used[family, text] = max(
                    fonts, key=lambda f: f["glyphCount"], default={"familyName": "nothing"}
                )["familyName"]
        return used
    finally:
        page.context.close()


def chromium_path() -> str:
    """Debian's Chromium; the browser tests fail (never skip) without it."""
    found = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if not found:
        pytest.fail(
            "The browser tests need Debian's Chromium (/usr/bin/chromium) and it is not "
            "installed. `bash tests/run.sh` installs it (apt-get install chromium); so "
            "does CI.",
            pytrace=False,
        )
    return found


def chip(field: str, value: Any) -> str:
    """The chip that picks *value* for *field*."""
    return f'#f-{field} label:has(input[value="{value}"])'


class Thumb:
    """Taps, counted."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, target) -> None:
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator.tap()
        self.count += 1

    def taken(self) -> int:
        """The taps since the last call."""
        count, self.count = self.count, 0
        return count


def capture_taps(prefix: str, capture: dict[str, int]) -> list[str]:
    """Who doubled the card (the form asks it first: it is announced before the play), who
    took it, and who led when the form asks."""
    taps = []
    if "doubled_by" in capture:
        taps.append(chip(f"{prefix}_doubled_by", capture["doubled_by"]))
    taps.append(chip(f"{prefix}_taker", capture["taker"]))
    if "led_by" in capture:
        taps.append(chip(f"{prefix}_led_by", capture["led_by"]))
    return taps


def entry_taps(deal: dict[str, Any]) -> list[str]:
    """The chips a person taps to enter *deal* (a file-format deal), in the form's order. The
    fourth count and the last place are left to fill themselves in."""
    taps: list[str] = []
    if "king_of_hearts" in deal:
        taps += capture_taps("kh", deal["king_of_hearts"])
    if "diamonds" in deal:
        taps += [chip(f"diamonds_{s}", n) for s, n in enumerate(deal["diamonds"][:3])]
    if "queens" in deal:
        for suit in QUEEN_SUITS:
            taps += capture_taps(f"q_{suit}", deal["queens"][suit])
    if "tricks" in deal:
        taps += [chip(f"tricks_{s}", n) for s, n in enumerate(deal["tricks"][:3])]
    if "trex_order" in deal:
        taps += [chip(f"trex_{p}", s) for p, s in enumerate(deal["trex_order"][:3], start=1)]
    return taps


def doubled_cards(deal: dict[str, Any]) -> int:
    captures = [deal.get("king_of_hearts") or {}] + list((deal.get("queens") or {}).values())
    return sum(1 for c in captures if "doubled_by" in c)


def engine_game(names, deals, *, first_king: int = 0, rules: dict | None = None):
    """The engine's game and its score for these deals: what the pages must agree with."""
    doc = {
        "format": FORMAT,
        "title": "",
        "players": list(names),
        "rules": rules or {},
        "first_king": first_king,
        "deals": list(deals),
    }
    game = read_game(doc)
    return game, score_game(game)


def number(text: str) -> int:
    return int(text.strip().replace("\u2212", "-").replace("+", ""))


PREVIEW_SCRIPT = """expected => {
  const cells = Array.from(document.querySelectorAll('#live-preview tbody tr:first-child td'))
    .map(td => Number(td.textContent.trim().replace('\u2212', '-').replace('+', '')));
  return cells.length === expected.length && cells.every((c, i) => c === expected[i]);
}"""


def wait_for_preview(page, expected) -> None:
    """Wait until the live preview shows *expected* as this deal's scores (the page replaces
    the preview as each answer comes, so it is read whole, in one go)."""
    try:
        page.wait_for_function(PREVIEW_SCRIPT, arg=list(expected), timeout=5000)
    except Exception:
        shown = page.locator("#live-preview").inner_text()
        raise AssertionError(f"the preview shows {shown!r}, not {list(expected)}") from None


def wait_until(page, expression: str, *, timeout: float = 10.0) -> Any:
    """Wait until *expression* is true in the page, asked from here every 50 ms. Playwright's
    ``wait_for_function`` polls inside the page by evaluating its string there, which the app's
    Content-Security-Policy (no ``unsafe-eval``) refuses once it has to poll; ``evaluate``
    from here is not subject to it."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout:g} s: {expression}")
        time.sleep(0.05)


def standings(page) -> dict[str, int]:
    """Each player's total as the page shows it: at the head of its scoresheet."""
    names = page.locator("#live table.sheet thead tr:first-child th bdi").all_inner_texts()
    totals = page.locator("#live table.sheet thead tr.totals td > span").all_inner_texts()
    return dict(zip(names, (number(t) for t in totals)))


def first_load(page, url: str) -> tuple[Any, int, dict[str, int]]:
    """Open *url* in a fresh phone: the response, and the bytes the visit loaded before the
    page's load event and while the network settles (uncompressed): HTML, CSS, JS, and also
    the images (charts, the QR code, the icon) and what a script fetched, in all and by
    address. (The app serves no font: the pages use the phone's own.)"""
    responses: list = []

    def listen(response) -> None:
        responses.append(response)

    page.on("response", listen)
    response = page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", listen)
    sizes = {}
    for each in responses:
        if each.status >= 300 and each.request.resource_type != "document":
            continue
        try:
            sizes[each.url] = len(each.body())
        except Exception:  # an answer to the page that was left (its scoreboard's poll)
            if not each.frame.url.startswith(url):
                continue
            if each.request.method != "GET":
                raise
            # Chromium let go of a body it loaded (a loaded machine): the same GET again
            sizes[each.url] = len(page.request.get(each.url).body())
    return response, sum(sizes.values()), sizes


def keep_score(page, site, game_id: int) -> None:
    """Open the game's edit link on this phone (as the phone that started it would share it),
    which lands on the game page."""
    page.goto(site.url + edit_link(site.seed, game_id))
    page.wait_for_url(f"{site.url}/games/{game_id}")


def shoot(page, name: str) -> Path:
    path = ARTIFACTS / "screens" / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    return path
