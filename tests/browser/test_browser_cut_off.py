"""Issue 28, "nothing a player must read is cut off", measured as drawn in Chromium: the running
totals chart's legend on a game's record, the club night's wall view on a 1280 x 720 TV, the
game page's Totals row on the first screen, and the Queens entry's last chips above the bar."""

from __future__ import annotations

import pytest

from phone_helpers import ARTIFACTS, NARROW, PHONE, SVG_OUTSIDE, chip, shoot, wait_until
from played import GAME
from web_helpers import Table, edit_link

LOCALES = ["en-GB", "ar-JO"]
LONG_NAMES = ["عبد الرحمن", "Christina Papadopoulos", "Mohammed Abdulrahman", "Yasmine"]
TV = {"width": 1280, "height": 720}
DESKTOP = {"width": 1280, "height": 900}


def started(site, names, deals=(), **settings) -> tuple[int, dict[str, str]]:
    """A game with *deals* entered through the forms, and the cookie of the phone that keeps
    its score."""
    client = site.client()
    table = Table(client)
    game_id = table.new_game(names, **settings)
    table.play(game_id, deals)
    client.get("/")
    return game_id, site.cookie(client)


# --- the chart's legend ------------------------------------------------------------------------

#: The texts drawn in the chart's figure on the page, each whole (not cut by its box, not past
#: the screen's edges).
FIGURE_TEXTS = """() => Array.from(document.querySelectorAll('figure.chart *'))
  .filter(el => el.children.length === 0 && el.textContent.trim()).map(el => {
    const r = el.getBoundingClientRect();
    return {text: el.textContent.trim(), whole: el.scrollWidth <= el.clientWidth + 1
      && r.left >= -1 && r.right <= innerWidth + 1 && r.width > 0};
  })"""


@pytest.mark.parametrize("locale", LOCALES)
def test_every_legend_entry_of_the_running_totals_is_drawn_in_full(
    site, new_phone, locale, artifacts
):
    game_id, cookie = started(site, LONG_NAMES, GAME[:7])
    page = new_phone(cookies=[cookie], locale=locale)
    for size in (NARROW, PHONE, DESKTOP):
        page.set_viewport_size(size)
        at = f"{locale} {size['width']} px"
        page.goto(f"{site.url}/history/games/{game_id}")
        chart = page.locator("figure.chart img")
        chart.scroll_into_view_if_needed()
        wait_until(page, "document.querySelector('figure.chart img').complete")
        page.locator("figure.chart").screenshot(
            path=str(ARTIFACTS / "screens" / f"legend-{locale}-{size['width']}.png")
        )
        drawn = page.evaluate(FIGURE_TEXTS)
        for name in LONG_NAMES:
            assert any(d["text"] == name and d["whole"] for d in drawn), (at, name, drawn)
        svg = page.context.new_page()
        svg.set_viewport_size(size)
        svg.goto(site.url + chart.get_attribute("src"))
        assert svg.evaluate(SVG_OUTSIDE) == [], at
        svg.close()


# --- the wall view -----------------------------------------------------------------------------

NAMES_32 = [
    "Aya", "Bilal", "Carla", "ليلى", "Rami", "Nour", "Sami", "Hala",
    "Christina Papadopoulos", "عبد الرحمن", "Mohammed", "Mohannad", "Yasmine", "Dana", "Farah",
    "Ghassan", "Karim", "Lina", "Maya", "Nadim", "Omar", "Rana", "Salim", "Tala", "Walid",
    "Zeina", "Hadi", "Jana", "Khalil", "Layal", "Munir", "Noor",
]  # fmt: skip
#: How far the page reaches (its scrolling size), and its smallest text.
WALL_SCRIPT = """() => {
  const root = document.documentElement;
  let smallest = 99, cut = [];
  for (const el of document.querySelectorAll('main *')) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest('.sr')) continue;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible'
        || r.right > innerWidth + 1 || r.left < -1 || r.bottom > innerHeight + 1)
      cut.push(el.textContent.trim().slice(0, 30));
  }
  return {height: Math.max(root.scrollHeight, document.body.scrollHeight),
          width: Math.max(root.scrollWidth, document.body.scrollWidth),
          bottom: Math.round(document.querySelector('main').getBoundingClientRect().bottom),
          smallest, cut};
}"""
WALL_REPORT: list[str] = []


def club_night(site, players: int) -> int:
    """A club night of *players* players, its first round seated and a deal or two played at
    each table (so that the tables say what is left, and the standings have figures)."""
    client = site.seed.test_client()
    response = client.post(
        "/clubs/new",
        data={
            "title": f"Café night of {players}",
            "played_on": "2026-11-21",
            "rounds": "3",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join(NAMES_32[:players]),
        },
    )
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    club_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with site.seed.app_context():
        from scorekeeper.store import clubnights
        from scorekeeper.web.access.database import get_db

        tables = clubnights.load(get_db(), club_id).rounds[0].tables
    for n, table in enumerate(tables):
        client.get(edit_link(site.seed, table.game_id))
        for entered in GAME[: 1 + n % 3]:
            Table(client).enter(table.game_id, entered)
    return club_id


@pytest.mark.parametrize("players", [8, 9, 12, 16, 32])
@pytest.mark.parametrize("locale", LOCALES)
def test_the_wall_view_fits_a_1280_by_720_tv(site, new_phone, players, locale):
    club_id = club_night(site, players)
    page = new_phone(scheme="dark", size=TV, locale=locale)
    assert page.goto(f"{site.url}/clubs/{club_id}/wall").ok
    assert page.locator(".club-table").count() == players // 4  # and one sits out of 9
    assert page.locator("#night-standings tbody tr").count() == players
    found = page.evaluate(WALL_SCRIPT)
    line = (
        f"wall view, {players} players, {locale}, 1280x720: scrollHeight {found['height']} px, "
        f"scrollWidth {found['width']} px, the page ends at {found['bottom']} px, smallest text {found['smallest']} px"
    )
    WALL_REPORT.append(line)
    print(line)
    shoot(page, f"wall-{players}-{locale}")
    assert found["height"] <= TV["height"] and found["width"] <= TV["width"], found
    assert found["smallest"] >= 16, found
    assert found["cut"] == [], found


# --- the game page's Totals row ----------------------------------------------------------------

TOTALS_END = """() => ({
  bottom: document.querySelector('#sheet thead tr.totals').getBoundingClientRect().bottom,
  screen: innerHeight, scrolled: scrollY})"""
#: Where a game stands: before deal 1, mid-kingdom, and at the start of the second kingdom
#: (its King to choose) and of the third.
MOMENTS = {"before deal 1": 0, "mid-game": 3, "kingdom 2": 5, "kingdom 3": 12}
GAMES = {"standard": {}, "partnership": {"preset": "partnership"}}
TABLE = ["Aya", "Bilal", "Carla", "ليلى"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", GAMES)
def test_the_totals_row_stays_on_the_first_screen(table_site, table_new_phone, kind, locale):
    late = []
    for moment, deals in MOMENTS.items():
        game_id, cookie = started(table_site, TABLE, GAME[:deals], **GAMES[kind])
        page = table_new_phone(cookies=[cookie], locale=locale)
        for size in (NARROW, PHONE):
            page.set_viewport_size(size)
            page.goto(f"{table_site.url}/games/{game_id}")
            found = page.evaluate(TOTALS_END)
            print(f"{kind} {moment} {locale} {size['width']}: Totals end at {found['bottom']:.0f}")
            if found["bottom"] > found["screen"] or found["scrolled"]:
                late.append((moment, size["width"], round(found["bottom"])))
            page.screenshot(
                path=str(
                    ARTIFACTS / "screens" / f"totals-{kind}-{deals}-{locale}-{size['width']}.png"
                ),
                full_page=True,
            )
        page.close()
    assert late == [], late


# --- the Queens entry's last chips -------------------------------------------------------------

QUEENS_NAMES = {
    "two-long": ["عبد الرحمن", "Christina Papadopoulos", "Aya", "Bilal"],
    "three-long": LONG_NAMES,
    "eleven-letters": ["Mohammed Ali", "عبد الرحمن", "Christina", "Abdulrahman"],
    "ten-letters": ["عبد الرحمن", "عبد الرحيم", "Christine", "Mohammed"],
    "eight-letters": ["Mohammed", "Mohannad", "Kristina", "Mahmoud"],
}
#: The bottom of the lowest chip of the form, and the top of the fixed bar.
LAST_CHIPS = """() => ({
  chips: Math.max(...Array.from(document.querySelectorAll('form .pick .chips label'))
    .filter(el => el.getClientRects().length).map(el => el.getBoundingClientRect().bottom)),
  bar: document.querySelector('.bar').getBoundingClientRect().top,
  page: document.documentElement.scrollHeight, screen: innerHeight})"""


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("names", QUEENS_NAMES.values(), ids=QUEENS_NAMES.keys())
def test_long_names_leave_the_last_queens_row_above_the_bar(
    table_site, table_new_phone, names, locale
):
    """On the first screen, without a scroll: before a chip is tapped, and once the four
    Queens are taken (the bar then shows the deal's scores under the names)."""
    game_id, cookie = started(table_site, names)
    page = table_new_phone(size=NARROW, cookies=[cookie], locale=locale)
    page.goto(f"{table_site.url}/games/{game_id}/deals/new?contracts=queens")
    found = [page.evaluate(LAST_CHIPS)]
    for suit, seat in zip(("spades", "hearts", "diamonds", "clubs"), range(4)):
        page.locator(chip(f"q_{suit}_taker", seat)).tap()
    page.locator("#live-preview table").wait_for()
    page.evaluate("() => window.scrollTo(0, 0)")
    found.append(page.evaluate(LAST_CHIPS))
    slug = f"{names[1][:5]}-{locale}"
    page.screenshot(path=str(ARTIFACTS / "screens" / f"queens-long-names-{slug}-360.png"))
    print(names, locale, found)
    assert all(f["chips"] <= f["bar"] for f in found), found


#: The bottom of the first button that confirms a deal ("Confirm all N waiting" where more than
#: one waits for this phone), if the page has one.
CONFIRM_END = """() => {
  const b = document.querySelector('#confirm-all button[type=submit], #waiting button[type=submit]');
  return b ? b.getBoundingClientRect().bottom : null; }"""


@pytest.mark.parametrize("locale", LOCALES)
def test_issue37_3__the_totals_row_stays_on_the_first_screen_with_confirmation_on(
    table_site, table_new_phone, locale
):
    """With confirmation by the other side, the scorekeeper's page after a save (every deal
    waiting for the other side) shows the Totals row without a scroll, at 360 x 740 and
    390 x 844. The other side's phone shows its button to confirm there instead, its next
    action, and the Totals row while nothing waits for it."""
    late = []
    for moment, deals in MOMENTS.items():
        game_id, cookie = started(table_site, TABLE, GAME[:deals], confirm="y")
        scorer = table_new_phone(cookies=[cookie], locale=locale)
        other = table_new_phone(locale=locale)
        for who, page in (("scorer", scorer), ("other", other)):
            for size in (NARROW, PHONE):
                page.set_viewport_size(size)
                page.goto(f"{table_site.url}/games/{game_id}")
                found = page.evaluate(TOTALS_END)
                button = page.evaluate(CONFIRM_END)
                if who == "other" and deals:
                    assert button is not None
                    end = button
                else:
                    assert button is None
                    end = found["bottom"]
                print(f"{who} {moment} {locale} {size['width']}: ends at {end:.0f}")
                if end > found["screen"] or found["scrolled"]:
                    late.append((who, moment, size["width"], round(end)))
                page.screenshot(
                    path=str(
                        ARTIFACTS
                        / "screens"
                        / f"totals-confirm-{who}-{deals}-{locale}-{size['width']}.png"
                    ),
                    full_page=True,
                )
        scorer.close()
        other.close()
    assert late == [], late
