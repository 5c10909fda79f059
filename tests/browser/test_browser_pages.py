"""Every page on a phone: no sideways scrolling at 360 px, 44 px targets and 16 px text; WCAG AA
contrast in light and dark mode; at most 40 KB on first load (HTML, CSS, JS, images, fetches); a screenshot
of each in test-artifacts/screens/. (No request may leave 127.0.0.1: see the new_phone fixture.)
"""

from __future__ import annotations

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
    first_load,
    shoot,
)
import samples
from samples import Sample

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


#: Every page a phone reads, as tests/samples.py declares them (one list for every test of
#: every page).
PAGES = samples.PAGES


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


def look_at(spec: Sample, page, site, seeded, name: str) -> None:
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
