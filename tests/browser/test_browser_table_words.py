"""Issue 28, what a browser draws of "words and colours that say the right thing": the
colours under reverse scores, and the history's times in the phone's own time zone."""

from __future__ import annotations

import re

import pytest

from scorekeeper.store import storage
from scorekeeper.store.db import connect

from phone_helpers import NARROW, PHONE, keep_score, shoot
from web_helpers import Table

NAMES = ["Aya", "Bilal", "Carla", "Dana"]
TREX = {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]}
#: Then Dana takes the four Queens and the K♥: totals +200, +150, +100, −125 (the other way
#: round under reverse scores).
AGAINST_DANA = [
    {
        "king": 0,
        "contracts": ["queens"],
        "queens": {s: {"taker": 3} for s in ("spades", "hearts", "diamonds", "clubs")},
    },
    {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 3}},
]

#: The colour a total is drawn in, and the colours the page's styles give good and bad.
COLOURS = """() => {
  const probe = (colour) => { const el = document.createElement('span');
    el.style.color = colour; document.body.append(el);
    const drawn = getComputedStyle(el).color; el.remove(); return drawn; };
  const totals = Array.from(document.querySelectorAll('#sheet thead tr.totals td > span'));
  return {totals: totals.map(s => [s.textContent, getComputedStyle(s).color]),
          good: probe('var(--pos)'), bad: probe('var(--neg)')};
}"""


def test_reverse_scores_colours_follow_who_is_winning(new_phone, site, own_game):
    """Under reverse scores Aya's −200 leads (the lowest total wins) and is drawn in the good
    colour, Dana's +125 in the bad one; without them, +200 good and −125 bad."""
    for settings, leader, last in (
        ({"preset": "custom", "reverse_scores": "y"}, "−200", "+125"),
        ({}, "+200", "−125"),
    ):
        game_id, cookie = own_game(NAMES, **settings)
        client = site.seed.test_client()
        client.set_cookie("session", cookie["value"])
        for deal in [TREX] + AGAINST_DANA:
            Table(client).enter(game_id, deal)
        page = new_phone(cookies=[cookie])
        keep_score(page, site, game_id)
        drawn = page.evaluate(COLOURS)
        assert drawn["good"] != drawn["bad"]
        colour = dict(drawn["totals"])
        assert colour[leader] == drawn["good"], (settings, drawn)
        assert colour[last] == drawn["bad"], (settings, drawn)


def test_history_shows_the_phones_local_time(new_phone, site, own_game):
    """A deal saved at 12:34 UTC reads 3:34 pm on a phone in Amman (UTC+3) and 7:34 am in New
    York, in the page's language and digits; never the UTC time."""
    game_id, cookie = own_game(NAMES)
    client = site.seed.test_client()
    client.set_cookie("session", cookie["value"])
    Table(client).enter(game_id, TREX)
    db = connect(site.app.config["DATABASE"])
    try:
        db.execute(
            "update deal_history set at = '2026-11-26T12:34:00+00:00' where game_id = ?", [game_id]
        )
        db.conn.commit()
        assert storage.history(db, game_id)[0]["at"].startswith("2026-11-26T12:34")
    finally:
        db.close()
    for zone, locale, expected in (
        ("Asia/Amman", "en-GB", "3:34"),
        ("America/New_York", "en-GB", "7:34"),
        ("Asia/Amman", "ar-JO", "٣:٣٤"),
    ):
        page = new_phone(cookies=[cookie], timezone_id=zone, locale=locale)
        if locale.startswith("ar"):
            page.goto(f"{site.url}/digits/arabic?next=/")
        page.goto(f"{site.url}/games/{game_id}/history")
        shown = page.locator("time").first.inner_text()
        assert "UTC" not in shown and "12:34" not in shown and "١٢:٣٤" not in shown
        assert re.search(rf"(^|\D){expected}(\D|$)", shown), (zone, locale, shown)


#: Every option of New game's settings whose words do not all show (cut by its box).
CUT_OPTIONS = """() => Array.from(document.querySelectorAll('#settings .chips label, #settings .check span'))
  .filter(el => el.getClientRects().length)
  .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
                || Array.from(el.querySelectorAll('*')).some(c => c.scrollWidth > c.clientWidth + 1))
  .map(el => el.textContent.trim())"""


@pytest.mark.parametrize("locale", ["en-GB", "ar-JO"])
def test_every_new_game_setting_reads_in_full(new_phone, site, locale):
    """Issue 28: New game, Custom, every setting at 390 and 360 px: no option is cut."""
    page = new_phone(locale=locale)
    page.goto(f"{site.url}/games/new")
    page.locator("#presets label:has(input[value=custom])").tap()
    if not page.locator("#settings[open]").count():
        page.locator("#settings > summary").tap()
    page.locator("#settings[open]").wait_for()
    for size in (PHONE, NARROW):
        page.set_viewport_size(size)
        assert page.evaluate(CUT_OPTIONS) == [], (locale, size)
        shoot(page, f"new-game-settings-{locale}-{size['width']}")
