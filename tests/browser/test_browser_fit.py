"""The table screen, measured in the browser: each entry form on a 390 x 844 and a 360 x 740
phone takes its whole result without a scroll (every chip tapped is on the screen, above the bar,
and the page has not moved), and then the bottom of Save and of the live scores are on the
screen; and the game page of a finished game ends its sheet within two screens. The figures are
printed at the end of the run (and recorded in BENCHMARKS.md)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import PRESETS, read_deal, score_deal
from scorekeeper.engine.rules import HouseRules

from phone_helpers import (
    ARTIFACTS,
    FIT_REPORT,
    NARROW,
    PHONE,
    chip,
    entry_taps,
    shoot,
    wait_for_preview,
)
from played import deal, kh, queens
from web_helpers import COMPLEX, PLAYERS

LEADER_CREDIT = {
    "preset": "custom",
    "doubling": "y",
    "self_capture": "leader-credit",
    "combining": "complex",
}
#: (name, the game's settings, the deal entered): every contract, doubled cards included.
FORMS = [
    ("King of Hearts, doubled", {}, deal(0, "king_of_hearts", king_of_hearts=kh(2, 1))),
    ("Diamonds", {}, deal(0, "diamonds", diamonds=[4, 3, 5, 1])),
    ("Queens, two doubled", {}, deal(0, "queens", queens=queens(kh(3, 1), kh(0, 0), kh(2), kh(1)))),
    ("Collections", {}, deal(0, "collections", tricks=[3, 4, 2, 4])),
    ("Trex", {}, deal(0, "trex", trex_order=[2, 0, 3, 1])),
    (
        "Complex",
        {"preset": "complex"},
        {
            "king": 0,
            "contracts": COMPLEX.split(","),
            "king_of_hearts": kh(2, 0),
            "diamonds": [3, 4, 3, 3],
            "queens": queens(kh(3, 3), kh(1), kh(0), kh(2)),
            "tricks": [3, 4, 3, 3],
        },
    ),
    (
        "Complex, leader credit",
        LEADER_CREDIT,
        {
            "king": 0,
            "contracts": COMPLEX.split(","),
            "king_of_hearts": {"taker": 1, "doubled_by": 1, "led_by": 2},
            "diamonds": [3, 4, 3, 3],
            "queens": queens({"taker": 3, "doubled_by": 3, "led_by": 0}, kh(1), kh(0), kh(2)),
            "tricks": [3, 4, 3, 3],
        },
    ),
]

#: Where a chip stands before it is tapped: it must be on the screen above the bar, and the
#: page must not have been scrolled.
IN_VIEW = """el => {
  const r = el.getBoundingClientRect(), bar = document.querySelector('.bar').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, limit: bar.top, scrolled: window.scrollY};
}"""
#: The bottom of Save and of the live scores, the screen's height, and where the result's
#: controls shown end and the bar begins.
BOTTOMS = """() => ({
  save: document.querySelector('button[data-save]').getBoundingClientRect().bottom,
  scores: document.getElementById('live-preview').getBoundingClientRect().bottom,
  controls: Math.max(...Array.from(document.querySelectorAll('form .pick'))
    .filter(el => el.getClientRects().length).map(el => el.getBoundingClientRect().bottom)),
  bar: document.querySelector('.bar').getBoundingClientRect().top,
  screen: window.innerHeight, scrolled: window.scrollY})"""


def rules_of(settings: dict) -> HouseRules:
    if settings.get("preset") == "complex":
        return PRESETS["complex"]
    if settings:
        return HouseRules(doubling=True, self_capture="leader-credit", combining="complex")
    return HouseRules()


@pytest.mark.parametrize("size", [PHONE, NARROW], ids=["390x844", "360x740"])
@pytest.mark.parametrize("name, settings, entered", FORMS, ids=[f[0] for f in FORMS])
def test_the_whole_entry_on_one_screen(
    table_site, table_own_game, table_new_phone, size, name, settings, entered
):
    game_id, cookie = table_own_game(PLAYERS, **settings)
    page = table_new_phone(size=size, cookies=[cookie])
    contracts = ",".join(entered["contracts"])
    page.goto(f"{table_site.url}/games/{game_id}/deals/new?contracts={contracts}")
    out_of_view = []
    taps = entry_taps(entered)
    for target in taps:
        where = page.locator(target).evaluate(IN_VIEW)
        if where["scrolled"] or where["top"] < 0 or where["bottom"] > where["limit"]:
            out_of_view.append((target, where))
        page.locator(target).tap()
    record, _ = read_deal(entered, 1, PLAYERS)
    wait_for_preview(page, score_deal(record, rules_of(settings)))
    found = page.evaluate(BOTTOMS)
    line = (
        f"{name:<24} {size['width']}x{size['height']}: Save ends at {found['save']:.0f} px, "
        f"the scores at {found['scores']:.0f} px; the controls at {found['controls']:.0f} px, "
        f"the bar begins at {found['bar']:.0f} px ({len(taps)} chips tapped, "
        f"{len(out_of_view)} out of view)"
    )
    FIT_REPORT.append(line)
    print(line)
    slug = name.replace(",", "").replace(" ", "-").lower()
    page.screenshot(path=str(ARTIFACTS / "screens" / f"fit-{slug}-{size['width']}.png"))
    assert out_of_view == [], out_of_view
    assert found["scrolled"] == 0
    assert found["save"] <= found["screen"] and found["scores"] <= found["screen"], found
    assert found["controls"] <= found["bar"], found
    assert page.locator("button[data-save]").is_enabled()


def test_an_impossible_result_turns_save_off_and_says_why(
    table_site, table_own_game, table_new_phone
):
    """Diamonds 4 + 3 + 3 + 2 = 12: Save is off and the bar says why, in words, until the
    counts add up."""
    game_id, cookie = table_own_game()
    page = table_new_phone(size=NARROW, cookies=[cookie])
    page.goto(f"{table_site.url}/games/{game_id}/deals/new?contracts=diamonds")
    for seat, count in enumerate((4, 3, 3)):
        page.locator(chip(f"diamonds_{seat}", count)).tap()
    page.locator(chip("diamonds_3", 2)).tap()  # the fourth, changed by hand: 12 in all
    save = page.locator("button[data-save]")
    page.wait_for_function("() => document.querySelector('button[data-save]').disabled")
    why = page.locator("#live-preview .why").inner_text()
    assert "13" in why, why
    assert save.get_attribute("aria-describedby") == "live-preview"
    shoot(page, "entry-impossible")
    page.locator(chip("diamonds_3", 3)).tap()
    page.wait_for_function("() => !document.querySelector('button[data-save]').disabled")
    wait_for_preview(page, [-40, -30, -30, -30])


def test_a_finished_game_is_two_screens_long_before_its_sheet_ends(
    table_site, table_seeded, table_new_phone
):
    """The game page of a finished twenty-deal game (and one redeal), on a 390 x 844 phone: its
    height down to the end of the sheet, at most two screens."""
    page = table_new_phone(cookies=[table_seeded.cookie(table_site)])
    page.goto(f"{table_site.url}/games/{table_seeded.over}")
    end = page.evaluate(
        "() => document.querySelector('table.sheet').getBoundingClientRect()"
        ".bottom + window.scrollY"
    )
    whole = page.evaluate("() => document.documentElement.scrollHeight")
    line = (
        f"game page, finished 21-deal game, 390 px wide: the sheet ends at {end:.0f} px "
        f"(two screens: {2 * PHONE['height']} px), the page at {whole} px"
    )
    FIT_REPORT.append(line)
    print(line)
    assert end <= 2 * PHONE["height"], line
