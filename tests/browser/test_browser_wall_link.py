"""Issue 37, item 5, in a real browser: a café's TV (1280×720) that is no member of the group
opens a club night's wall by its wall link and follows the tables by itself, on a box of many
groups under waitress (CSRF on, as in production); it reaches nothing else of the group, and
once the organiser makes a new wall link the old one shows nothing. On the laptop server, the
tournament's wall link shows the whole bracket on the TV's screen."""

from __future__ import annotations

import re

import pytest

import test_browser_groups
from phone_helpers import LAYOUT_SCRIPT, PHONE, chip, shoot
from test_browser_club_night import EIGHT, FOLLOW_MS, TV
from test_browser_groups import nothing_here

#: The box of many groups under waitress, as the groups test starts it.
box = test_browser_groups.box


@pytest.fixture
def devices(browser):
    """Phones (``phone()``) and TVs (``tv()``); no request may leave 127.0.0.1."""
    contexts, requests = [], []

    def make(size: dict, mobile: bool):
        context = browser.new_context(
            viewport=size, screen=size, is_mobile=mobile, has_touch=mobile, reduced_motion="reduce"
        )
        context.set_default_timeout(10_000)
        context.on("request", lambda request: requests.append(request.url))
        contexts.append(context)
        return context.new_page()

    yield (lambda: make(PHONE, True)), (lambda: make(TV, False))
    for context in contexts:
        context.close()
    assert [u for u in requests if not u.startswith("http://127.0.0.1:")] == []


def fits(tv) -> bool:
    width, height = tv.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    return width <= TV["width"] and height <= TV["height"]


def wall_link(organiser) -> str:
    organiser.locator("#wall-link summary").click()
    qr = organiser.locator("#wall-link img.qr")
    assert organiser.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=qr.element_handle()
    )
    return organiser.locator("#wall-url").inner_text()


def test_issue37_5__a_tv_that_is_no_member_opens_the_wall_link_and_follows_the_night(box, devices):
    phone, tv_screen = devices
    organiser = phone()
    organiser.goto(box + "/")
    organiser.fill("input[name=name]", "Café Rawda")
    organiser.locator('button:text-is("Start the group")').tap()
    organiser.wait_for_url(re.compile(r"/g/[a-z2-9]+/group$"))
    group = organiser.url.split("/g/")[1].split("/")[0]
    organiser.goto(f"{box}/g/{group}/clubs/new")
    organiser.fill("#players", "\n".join(EIGHT))
    organiser.fill("#title", "Café night")
    organiser.locator(
        "#f-first_round input[value=entered] + *, #f-first_round label:has(input[value=entered])"
    ).first.tap()
    organiser.locator("#new-game button[type=submit]").tap()
    organiser.wait_for_url(re.compile(r"/clubs/\d+$"))
    night = organiser.url
    link = wall_link(organiser)
    assert re.fullmatch(rf"{box}/g/{group}/w/[0-9a-f]{{32}}", link)
    shoot(organiser, "wall-link-organiser")

    tv = tv_screen()
    answer = tv.goto(link)
    assert answer.status == 200
    tv.locator("h1", has_text="Café night").wait_for()
    assert tv.locator("#table-1").is_visible() and tv.locator("#table-2").is_visible()
    assert tv.locator("main form, main button, main a").count() == 0  # read-only, no way on
    assert tv.locator("header nav").count() == 0  # no menu into the group
    assert fits(tv) and tv.evaluate(LAYOUT_SCRIPT)["small"] == []
    tv.evaluate("window.stayed = true")

    # table 1's phone (the organiser's, which holds the tables) saves a deal: the TV follows
    table = organiser.locator("#table-1 h3 a").get_attribute("href")
    organiser.goto(box + table)
    organiser.locator('#next .options a:text-is("King of Hearts")').tap()
    organiser.locator(chip("kh_taker", 2)).tap()
    organiser.locator("form[data-preview] button[name=step]").tap()
    organiser.locator(".flash").get_by_text("Deal 1 saved.").wait_for()
    tv.wait_for_function(
        "() => document.querySelector('#table-1 .progress').textContent.includes('Deal 2')",
        timeout=FOLLOW_MS,
    )
    assert tv.evaluate("window.stayed") is True
    shoot(tv, "wall-link-tv")

    # the same TV reaches nothing else: the night's page, its table's game, the group
    other = tv.context.new_page()  # the same screen, another tab: the TV's cookies
    for url in (night, night + "/wall", box + table, f"{box}/g/{group}/"):
        response = other.goto(url)
        assert response.status == 404 and nothing_here(other), url
        assert "Café" not in other.content()

    # a new wall link: the TV's old one shows nothing, the new one shows the wall
    organiser.goto(night)
    organiser.locator("#wall-link summary").click()
    organiser.locator("#new-wall-link button").tap()
    organiser.locator(".flash").wait_for()
    new = wall_link(organiser)
    assert new != link
    assert tv.reload().status == 404 and nothing_here(tv)
    assert tv.goto(new).status == 200
    tv.locator("h1", has_text="Café night").wait_for()

    # the café reads Arabic: the header's language link brings the TV back to its wall
    tv.locator("header a.lang").click()
    tv.wait_for_url(new)
    assert tv.locator("html").get_attribute("dir") == "rtl"
    tv.locator("h1", has_text="Café night").wait_for()
    assert fits(tv)
    shoot(tv, "wall-link-tv-ar")


def test_issue37_5__the_tournaments_wall_link_fills_the_tv_on_a_laptop(site, seeded, devices):
    with site.seed.app_context():
        from scorekeeper.store.keys import wall_key
        from scorekeeper.web.access.database import get_db

        key = wall_key(get_db(), "tournament", seeded.tournament)
    _, tv_screen = devices
    tv = tv_screen()
    assert tv.goto(f"{site.url}/w/{key}").status == 200
    tv.locator("h1", has_text="Majlis cup").wait_for()
    assert tv.locator(".match").count() == 2
    assert fits(tv) and tv.evaluate(LAYOUT_SCRIPT)["small"] == []
    assert tv.locator("#live").get_attribute("data-poll") == f"/w/{key}/state.json"
    shoot(tv, "wall-link-tournament-tv")
