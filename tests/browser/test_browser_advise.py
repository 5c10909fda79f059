"""Advise on a phone: the King taps 13 cards on a picker that fits the screen, and gets every
open choice ranked; with JavaScript off the picker is checkboxes and the answer a page. The hand
shows on no other page and nothing is written to the database."""

from __future__ import annotations

import re

from phone_helpers import CONTRAST_SCRIPT, LAYOUT_SCRIPT, NARROW, PHONE, Thumb, shoot
from web_helpers import PLAYERS

#: The K♥ with six low hearts: King of Hearts is safe.
HAND = ("KH", "2H", "3H", "4H", "5H", "6H", "7H", "3S", "4S", "5S", "3D", "4D", "3C")
#: Everything that may differ between two loads of the same page: form tokens.
TOKENS = re.compile(r'name="csrf_token" value="[^"]*"|"csrf_token": "[^"]*"')


def tap_hand(page, thumb: Thumb, hand=HAND) -> None:
    for card in hand:
        thumb.tap(f'#picker label:has(input[value="{card}"])')


def fits_the_screen(page) -> dict:
    """How tall the page is against the screen, and the picker's cards as tapped."""
    return page.evaluate("""() => {
      const cards = [...document.querySelectorAll('#picker .suit label')].map(l => {
        const r = l.getBoundingClientRect(); return [r.width, r.height]; });
      const button = document.querySelector('#picker button').getBoundingClientRect();
      return {height: document.documentElement.scrollHeight, screen: window.innerHeight,
              button: button.bottom, cards};
    }""")


def other_pages(page, site, game_id: int) -> dict[str, str]:
    """What the game's other pages say, as this phone and as a watching phone load them."""
    urls = [
        f"/games/{game_id}",
        f"/games/{game_id}/watch",
        f"/games/{game_id}/state.json",
        f"/games/{game_id}/history",
        f"/history/games/{game_id}",
        "/",
        "/history/",
    ]
    return {url: TOKENS.sub("", page.request.get(site.url + url).text()) for url in urls}


def database_dump(site) -> list[str]:
    from scorekeeper.store.db import connect

    db = connect(site.app.config["DATABASE"])
    try:
        return list(db.conn.iterdump())
    finally:
        db.close()


def test_advise_on_a_phone(site, own_game, new_phone):
    game_id, cookie = own_game()
    page = new_phone(cookies=[cookie])
    thumb = Thumb(page)
    page.goto(f"{site.url}/games/{game_id}")
    before, stored = other_pages(page, site, game_id), database_dump(site)
    thumb.tap('a:text-is("Advise: which contract for my hand?")')
    page.wait_for_url(f"{site.url}/games/{game_id}/advise")
    # the picker fits a 390 x 844 phone without scrolling: four suits, 44 px ranks, the count
    found = fits_the_screen(page)
    assert found["height"] <= PHONE["height"] and found["button"] <= PHONE["height"], found
    assert len(found["cards"]) == 52
    assert all(w >= 44 and h >= 44 for w, h in found["cards"]), found["cards"]
    assert page.locator("#picked").inner_text() == "0"
    thumb.taken()
    tap_hand(page, thumb, HAND[:12])
    assert page.locator("#picked").inner_text() == "12"
    tap_hand(page, thumb, HAND[12:])
    assert page.locator("#picked").inner_text() == "13"
    shoot(page, "advise-picker-light")
    thumb.tap("#picker button[type=submit]")
    page.locator("#advice h2").wait_for()
    page.wait_for_load_state("load")  # the answer's stylesheets applied before they are read
    assert thumb.taken() == 14  # 13 cards and one to ask
    best = page.locator("#advice .choices > li.best")
    assert best.locator(".name b").inner_text() == "King of Hearts"
    assert "You take the K♥ in 0% of deals." in best.inner_text()
    assert page.locator("#advice .choices > li").count() == 5
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(CONTRAST_SCRIPT) == [], scheme
        shoot(page, f"advise-answer-{scheme}")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(NARROW)
    layout = page.evaluate(LAYOUT_SCRIPT)
    assert layout["width"] <= NARROW["width"] and layout["small"] == [] and layout["tiny"] == []
    # the hand is on no other page, and nothing was written
    assert other_pages(page, site, game_id) == before
    watcher = new_phone()
    watched = other_pages(watcher, site, game_id)
    for url, text in watched.items():
        assert "3S" not in text and 'value="KH"' not in text, url
    assert database_dump(site) == stored


def test_advise_without_javascript(site, own_game, new_phone):
    game_id, cookie = own_game(preset="complex")
    page = new_phone(js=False, cookies=[cookie])
    page.goto(f"{site.url}/games/{game_id}/advise")
    assert page.locator("#picker input[type=checkbox][name=card]").count() == 52
    for card in HAND[:5]:
        page.locator(f'#picker input[value="{card}"]').check()
    page.locator("#picker button[type=submit]").click()
    assert "A hand has 13 cards, not 5." in page.locator("#picker .error").inner_text()
    assert page.locator("#picker input[name=card]:checked").count() == 5  # kept
    for card in HAND[5:]:
        page.locator(f'#picker input[value="{card}"]').check()
    page.locator("#picker button[type=submit]").click()
    page.locator("#advice h2").wait_for()
    page.wait_for_load_state("load")  # the answer's stylesheets applied before they are read
    names = page.locator("#advice .choices .name b").all_inner_texts()
    assert sorted(names) == ["Complex", "Trex"]
    shoot(page, "advise-answer-without-javascript")


def test_advise_in_arabic(site, own_game, new_phone):
    game_id, cookie = own_game(["سامي", "Nour", "ليلى", "Hala"], preset="partnership")
    page = new_phone(
        scheme="dark", cookies=[cookie, {"name": "lang", "value": "ar", "url": site.url}]
    )
    page.goto(f"{site.url}/games/{game_id}/advise")
    assert page.locator("html").get_attribute("dir") == "rtl"
    found = fits_the_screen(page)
    assert found["height"] <= PHONE["height"], found
    shoot(page, "advise-picker-arabic-dark")
    thumb = Thumb(page)
    tap_hand(page, thumb)
    thumb.tap("#picker button[type=submit]")
    page.locator("#advice h2").wait_for()
    page.wait_for_load_state("load")  # the answer's stylesheets applied before they are read
    assert page.evaluate(CONTRAST_SCRIPT) == []
    shoot(page, "advise-answer-arabic-dark")


def test_a_watching_phone_cannot_open_advise(site, own_game, new_phone):
    game_id, _cookie = own_game(PLAYERS)
    page = new_phone()
    response = page.goto(f"{site.url}/games/{game_id}/advise")
    assert response.status == 403
    page.goto(f"{site.url}/games/{game_id}")
    assert page.locator('a[href$="/advise"]').count() == 0
