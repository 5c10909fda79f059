"""Every page on a phone: no sideways scrolling at 360 px, 44 px targets and 16 px text; WCAG AA
contrast in light and dark mode; at most 40 KB on first load (HTML, CSS, JS, images, fetches); a screenshot
of each in test-artifacts/screens/. (No request may leave 127.0.0.1: see the new_phone fixture.)
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from flask import template_rendered

from scorekeeper.web import TEMPLATES

from phone_helpers import (
    CONTRAST_SCRIPT,
    LAYOUT_SCRIPT,
    NARROW,
    PAGE_BUDGET,
    PHONE,
    WEIGHT_REPORT,
    chip,
    first_load,
    shoot,
)
from web_helpers import COMPLEX

#: Pages reached only by sending a form, looked at by other tests (the no-JavaScript deal),
#: and the layout every page extends.
#: (the last two: test_browser_confirmation)
SENT_ONLY = {"preview.html", "confirm_stale.html", "undo_stale.html"}
#: Drawn for a link followed from another site (test_browser_language_switch looks at it).
FROM_ELSEWHERE = {"switch.html"}
#: Drawn only where reading is private (a box of many groups, a hosted box):
#: test_browser_groups looks at them on such a box, at a phone's size.
PRIVATE_BOX = {"front.html", "group/show.html"}
#: The header on one line (it wrapped to three, and the page started at 304 px).
HEADER_HEIGHT = 48
LAYOUTS = {"base.html"}


@dataclass(frozen=True)
class Page:
    name: str
    path: str  # with {fresh}, {playing}, {over}, {long}, {heavy}, {night}, {player}, {club},
    # {tournament}, {season}, and the wall links' keys {club_wall}, {tournament_wall}
    keeps_score: bool = False  # opened by a phone that may change the game
    taps: tuple[str, ...] = ()  # tapped before looking: chosen chips, the preview, errors
    status: int = 200

    def url(self, seeded) -> str:
        club_wall, tournament_wall = seeded.walls
        return self.path.format(
            **vars(seeded), club_wall=club_wall, tournament_wall=tournament_wall
        )


ENTRY = "/games/{fresh}/deals/new?contracts="
PAGES = [
    Page("home", "/"),
    Page("new-game", "/games/new"),
    Page("new-game-chances", "/games/new?from={over}"),  # the chances of four known players
    Page("game-before-first-deal", "/games/{fresh}", True),  # the chances again
    Page("game", "/games/{playing}", True),
    Page("game-watching", "/games/{playing}"),
    Page("game-over", "/games/{over}", True),
    Page("scoreboard", "/games/{playing}/watch"),
    Page("scoreboard-over", "/games/{over}/watch"),
    Page("choose-contract", "/games/{playing}/deals/new", True),
    Page(
        "entry-king-of-hearts",
        ENTRY + "king_of_hearts",
        True,
        (chip("kh_taker", 1), chip("kh_doubled_by", 1)),
    ),
    Page(
        "entry-diamonds",
        ENTRY + "diamonds",
        True,
        (chip("diamonds_0", 4), chip("diamonds_1", 3), chip("diamonds_2", 5)),
    ),
    Page(
        "entry-queens",
        ENTRY + "queens",
        True,
        (chip("q_spades_taker", 0), chip("q_spades_doubled_by", 2), chip("q_hearts_taker", 1)),
    ),
    Page("entry-collections", ENTRY + "collections", True, (chip("tricks_0", 13),)),
    Page(
        "entry-trex",
        ENTRY + "trex",
        True,
        (chip("trex_1", 2), chip("trex_2", 0), chip("trex_3", 3)),
    ),
    Page(
        "entry-complex-leader-credit",
        f"/games/{{heavy}}/deals/new?contracts={COMPLEX}",
        True,
        (chip("kh_doubled_by", 2), chip("kh_taker", 2)),
    ),
    # impossible: Save is off, and the bar says why
    Page(
        "entry-with-problems",
        ENTRY + "diamonds",
        True,
        (chip("diamonds_0", 13), chip("diamonds_1", 3)),
    ),
    Page("thrown-in", "/games/{playing}/thrown-in", True, (chip("reason", "misdeal"),)),
    Page("deal", "/games/{playing}/deals/1", True),
    Page("correct-deal", "/games/{playing}/deals/1/edit", True),
    Page("undo-deal", "/games/{playing}/deals/1/undo", True),
    Page("game-history", "/games/{playing}/history"),
    Page("share", "/games/{playing}/share", True),
    Page("fix-name", "/games/{playing}/seats/1/name", True),
    Page("advise", "/games/{playing}/advise", True),
    Page("watching-locked", ENTRY + "queens", status=403),
    Page("not-found", "/games/9999", status=404),
    Page("history", "/history/"),
    Page("history-search", "/history/?player=a"),  # links inside a sentence
    Page("history-search-nobody", "/history/?player=zzz"),
    Page("history-night", "/history/nights/{night}"),
    Page("history-game", "/history/games/{over}"),
    Page("history-game-25-deals", "/history/games/{long}"),
    Page("game-over-25-deals", "/games/{long}", True),
    Page("history-correct", "/history/games/{over}/correct", True),
    Page("players", "/players/"),
    Page("player", "/players/{player}"),
    Page("player-admin", "/players/{player}", True),
    Page("player-rename", "/players/{player}/rename", True),
    Page("player-merge", "/players/{player}/merge", True),
    Page("leaderboard", "/leaderboard"),
    Page("import", "/import"),
    Page("settings", "/settings"),
    Page("new-club-night", "/clubs/new"),
    Page("club-night", "/clubs/{club}", True),
    Page("club-night-watching", "/clubs/{club}"),
    Page("club-night-wall", "/clubs/{club}/wall"),
    Page("club-night-wall-link", "/w/{club_wall}"),  # the TV's wall, opened by its link
    Page("new-tournament", "/tournaments/new"),
    Page("tournament", "/tournaments/{tournament}", True),
    Page("tournament-watching", "/tournaments/{tournament}"),
    Page("tournament-wall", "/tournaments/{tournament}/wall"),
    Page("tournament-wall-link", "/w/{tournament_wall}"),
    Page("season", "/seasons/{season}"),
    Page("rules", "/rules/queens"),
    Page("share-result", "/games/{over}/result"),
    Page("share-night", "/history/nights/{night}/result"),
    Page("game-rules-complex", f"/games/{{heavy}}/rules/{COMPLEX}"),
]


def two_phones(browser, site, seeded, **options):
    """Two phones for all the pages, a scorekeeper and a watcher, with the browser's cache
    off so that every page is a first visit, and no service worker (it would serve later pages
    from what it kept: test_browser_offline.py tries it). No request may leave the app."""
    requests: list[str] = []
    made = {}
    for keeps_score in (True, False):
        context = browser.new_context(
            viewport=PHONE,
            screen=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            color_scheme="light",
            reduced_motion="reduce",
            service_workers="block",
            **options,
        )
        context.set_default_timeout(10_000)
        if keeps_score:
            context.add_cookies([seeded.cookie(site)])
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        made[keeps_score] = page
    yield made
    for page in made.values():
        page.context.close()
    assert [url for url in requests if not site.local(url)] == []


@pytest.fixture(scope="module")
def phones(browser, site, seeded):
    yield from two_phones(browser, site, seeded)


@pytest.fixture(scope="module")
def arabic_phones(browser, site, seeded):
    """The same, on phones whose browser asks for Arabic (the pages follow it)."""
    yield from two_phones(browser, site, seeded, locale="ar-JO")


def look_at(spec: Page, page, site, seeded, name: str) -> None:
    """Light and dark: contrast and a screenshot; at 360 px: sideways scrolling, targets and
    text; the weight of its first load."""
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="light")
    response, weight, sizes = first_load(page, site.url + spec.url(seeded))
    assert response.status == spec.status, (name, response.status)
    WEIGHT_REPORT[name] = weight
    for target in spec.taps:
        page.locator(target).tap()
    if spec.taps:
        page.wait_for_load_state("networkidle")
    problems = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems[f"contrast ({scheme})"] = page.evaluate(CONTRAST_SCRIPT)
        shoot(page, f"{name}-{scheme}")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(NARROW)
    found = page.evaluate(LAYOUT_SCRIPT)
    assert found["viewport"] == NARROW["width"]
    if found["width"] > NARROW["width"]:
        problems["scrolls sideways at 360 px"] = [f"{found['width']} px wide"]
    problems["text under 16 px"] = found["small"]
    problems["targets under 44 x 44 px"] = found["tiny"]
    header = page.evaluate("document.querySelector('header.top').getBoundingClientRect().height")
    if header > HEADER_HEIGHT:  # one line: the first thing to tap starts near the top
        problems["header on more than one line at 360 px"] = [f"{header} px high"]
    if weight > PAGE_BUDGET:
        problems["over 40 KB on first load"] = [f"{weight} bytes: {sizes}"]
    assert {k: v for k, v in problems.items() if v} == {}, name


@pytest.mark.parametrize("spec", PAGES, ids=[p.name for p in PAGES])
def test_page_on_a_phone(spec, site, seeded, phones):
    look_at(spec, phones[spec.keeps_score], site, seeded, spec.name)


@pytest.mark.parametrize("spec", PAGES, ids=[p.name for p in PAGES])
def test_page_in_arabic_on_a_phone(spec, site, seeded, arabic_phones):
    """Every page again in Arabic, right to left: its names and digits weigh more."""
    page = arabic_phones[spec.keeps_score]
    look_at(spec, page, site, seeded, f"ar-{spec.name}")
    assert page.locator("html").get_attribute("dir") == "rtl"


def page_templates() -> set[str]:
    """Every page template: not a partial (``_name.html``), not the printed sheet's."""
    return {
        str(p.relative_to(TEMPLATES))
        for p in TEMPLATES.rglob("*.html")
        if not p.name.startswith("_") and p.relative_to(TEMPLATES).parts[0] != "pdf"
    }


def test_the_pages_above_are_every_page(site, seeded):
    """Each page template is drawn by one of the pages above (or by a sent form, elsewhere)."""
    drawn: set[str] = set()

    def rendered(sender, template, context, **extra):
        drawn.add(template.name)

    app = site.seed
    template_rendered.connect(rendered, app)
    try:
        scorekeeper, watcher = app.test_client(), app.test_client()
        scorekeeper.set_cookie("session", seeded.session)
        for spec in PAGES:
            client = scorekeeper if spec.keeps_score else watcher
            assert client.get(spec.url(seeded)).status_code == spec.status, spec.name
    finally:
        template_rendered.disconnect(rendered, app)
    assert page_templates() - SENT_ONLY - FROM_ELSEWHERE - PRIVATE_BOX - LAYOUTS - drawn == set()
