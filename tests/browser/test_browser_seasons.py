"""A season on a phone (issue 31): added in Settings through the form (CSRF on, as in
production), its page read in English and Arabic at 360 px without a sideways scroll of the
page, and its Share button sending the season's text with the poster as a PNG."""

from __future__ import annotations

import re

import pytest

from phone_helpers import shoot, wait_until
from test_browser_share import STUB_SHARE

NARROW = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def season_url(browser, site, seeded):
    """A season from the first to the last night played in the whole calendar of the seeded
    games, added in Settings by a phone."""
    context = browser.new_context(viewport=NARROW)
    page = context.new_page()
    page.goto(f"{site.url}/settings")
    page.fill("#season-name", "Autumn 2026")
    page.fill("#season-first_night", "2000-01-01")
    page.fill("#season-last_night", "2100-12-31")
    page.check("input[name=season-from_nights]")
    page.locator("#seasons button[type=submit]").click()
    page.wait_for_url(f"{site.url}/seasons/*")
    url = page.url
    context.close()
    return url


@pytest.mark.parametrize("locale, lang", [("en-GB", "en"), ("ar-JO", "ar")])
def test_the_season_page_fits_a_narrow_phone(new_phone, site, season_url, locale, lang):
    page = new_phone(size=NARROW, locale=locale)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": site.url}])
    page.goto(season_url)
    assert page.locator("#champion").is_visible()
    assert page.locator("#champion-rule").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    shoot(page, f"season-{lang}")


def test_the_share_button_sends_the_text_and_the_poster(new_phone, season_url):
    page = new_phone()
    page.add_init_script(STUB_SHARE)
    page.goto(season_url)
    button = page.locator("#share-result")
    text = button.get_attribute("data-share")
    assert "Champion of the season" in text
    button.tap()
    wait_until(page, "window.__shared !== undefined")
    shared = page.evaluate("window.__shared")
    assert shared["text"] == text
    [file] = shared["files"]
    assert file["type"] == "image/png" and file["size"] > 10_000


#: Each column head and cell of the standings, drawn whole inside the screen, and a table no
#: wider than its box (nothing in a sideways scroll).
STANDINGS_CUT = """() => {
  const table = document.querySelector('#season-standings table'), found = [];
  if (table.parentNode.scrollWidth > table.parentNode.clientWidth + 1) {
    found.push('scrolls: ' + table.parentNode.scrollWidth + ' > ' + table.parentNode.clientWidth);
  }
  table.querySelectorAll('th, td').forEach(cell => {
    const r = cell.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > innerWidth + 1)) {
      found.push(cell.textContent.trim());
    }
  });
  return found;
}"""


@pytest.mark.parametrize("locale, lang", [("en-GB", "en"), ("ar-JO", "ar")])
def test_issue37_3__the_season_standings_are_read_whole_without_a_sideways_scroll(
    new_phone, site, season_url, locale, lang
):
    page = new_phone(size=NARROW, locale=locale)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": site.url}])
    page.goto(season_url)
    heads = page.locator("#season-standings thead th").all_inner_texts()
    points, rating = ("النقاط", "التصنيف") if lang == "ar" else ("Points", "Rating")
    assert points in heads and rating in heads
    assert page.evaluate(STANDINGS_CUT) == []
    first = page.locator("#season-standings tbody tr").first.inner_text()
    assert re.search(r"[·]", first)  # the games, places and average place under the name
    shoot(page, f"season-standings-{lang}-360")
