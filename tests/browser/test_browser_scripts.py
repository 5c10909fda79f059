"""The small scripts on top of forms that work without them: filling in the last count and place,
the live preview the server computes, who led, the new-game page, and the screen kept awake."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_helpers import chip, wait_for_preview
from web_helpers import COMPLEX


@pytest.fixture
def scorer(new_phone, site, seeded):
    """A phone that may keep score in the seeded games (nothing here saves a deal in them)."""
    return new_phone(cookies=[seeded.cookie(site)])


def test_fourth_count_fills_itself_in_and_the_server_scores_it(site, seeded, scorer):
    scorer.goto(f"{site.url}/games/{seeded.fresh}/deals/new?contracts=diamonds")
    assert scorer.locator("button[name=step]").inner_text() == "Save deal 1"
    for seat, value in ((0, 4), (1, 2), (3, 1)):
        scorer.locator(chip(f"diamonds_{seat}", value)).tap()
    assert scorer.is_checked('input[name="diamonds_2"][value="6"]')
    assert scorer.locator('#f-diamonds_2 label.auto input[value="6"]').count() == 1
    scorer.locator(chip("diamonds_0", 5)).tap()  # a change fills it in again
    assert scorer.is_checked('input[name="diamonds_2"][value="5"]')
    wait_for_preview(scorer, [-50, -20, -50, -10])


def test_the_preview_says_what_is_missing(site, seeded, scorer):
    scorer.goto(f"{site.url}/games/{seeded.fresh}/deals/new?contracts=king_of_hearts")
    preview = scorer.locator("#live-preview")
    preview.get_by_text("Say who took the K♥.").wait_for()
    scorer.locator(chip("kh_taker", 2)).tap()
    preview.locator("tbody tr").first.wait_for()
    assert "−75" in preview.inner_text()
    scorer.locator(chip("kh_doubled_by", 0)).tap()  # doubled: one more tap, on the holder
    preview.get_by_text("−150").first.wait_for()
    assert "+75" in preview.inner_text()


def test_last_place_fills_itself_in(site, seeded, scorer):
    scorer.goto(f"{site.url}/games/{seeded.fresh}/deals/new?contracts=trex")
    for place, seat in ((1, 2), (2, 0), (3, 3)):
        scorer.locator(chip(f"trex_{place}", seat)).tap()
    assert scorer.is_checked('input[name="trex_4"][value="1"]')


def test_who_led_shows_only_when_the_holder_took_it(site, seeded, scorer):
    scorer.goto(f"{site.url}/games/{seeded.heavy}/deals/new?contracts={COMPLEX}")
    leader = scorer.locator('[data-leader="kh"]')
    assert leader.is_hidden()
    scorer.locator(chip("kh_doubled_by", 2)).tap()  # asked first: announced before the play
    scorer.locator(chip("kh_taker", 2)).tap()
    assert leader.is_visible()
    scorer.locator(chip("kh_doubled_by", 1)).tap()
    assert leader.is_hidden()


def test_new_game__presets_fill_the_settings_and_names_fill_the_page(site, phone):
    phone.goto(site.url + "/games/new")
    phone.locator('#presets label:has(input[value="complex"])').tap()
    phone.locator("#settings summary").tap()
    assert phone.is_checked('input[name="combining"][value="complex"]')
    phone.locator('#f-rotation label:has(input[value="table-picks"])').tap()
    assert phone.is_checked('#presets input[value="custom"]')
    for seat, name in enumerate(["Aya", "نور", "Carla", "Dana"]):
        phone.fill(f'input[name="player_{seat}"]', name)
    assert phone.inner_text('[data-name="1"]') == "نور"
    assert phone.inner_text('#f-first_king label:has(input[value="1"])') == "نور"
    href = phone.get_attribute("#blank-sheet", "href")
    assert href == "/sheet/blank.pdf?names=Aya&names=%D9%86%D9%88%D8%B1&names=Carla&names=Dana"


def test_new_game__fixed_order_choices_only_when_ticked(site, phone):
    phone.goto(site.url + "/games/new")
    phone.locator("#settings summary").tap()
    order = phone.locator('[data-show-if="fixed_order_on"]')
    assert order.is_hidden()
    phone.locator('label.check:has(input[name="fixed_order_on"])').tap()
    assert order.is_visible()
    assert phone.is_checked('#presets input[value="custom"]')
    phone.locator('#presets label:has(input[value="standard"])').tap()
    assert order.is_hidden() and not phone.is_checked('input[name="fixed_order_on"]')


def test_new_game__a_rule_that_needs_partnership_shows_only_with_it(site, phone):
    """RULES.md "Partnership": split_queens_replay is a partnership rule; its checkbox shows
    with Partnership ticked, and is off again once Partnership is."""
    phone.goto(site.url + "/games/new")
    phone.locator("#settings summary").tap()
    split = phone.locator('[data-show-if="partnership"]')
    assert split.is_hidden()
    phone.locator('label.check:has(input[name="partnership"])').tap()
    assert split.is_visible()
    phone.locator('label.check:has(input[name="split_queens_replay"])').tap()
    assert phone.is_checked('input[name="split_queens_replay"]')
    phone.locator('label.check:has(input[name="partnership"])').tap()
    assert split.is_hidden() and not phone.is_checked('input[name="split_queens_replay"]')


#: Stands in for the Screen Wake Lock API and records what the page asks of it.
WAKE_LOCK_STUB = """(() => {
  window.wakeCalls = [];
  window.wakeSentinels = [];
  const api = {request(type) {
    window.wakeCalls.push(type);
    const sentinel = new EventTarget();
    sentinel.released = false;
    sentinel.release = () => { sentinel.released = true;
      sentinel.dispatchEvent(new Event('release')); return Promise.resolve(); };
    window.wakeSentinels.push(sentinel);
    return Promise.resolve(sentinel);
  }};
  Object.defineProperty(Navigator.prototype, 'wakeLock', {get: () => api, configurable: true});
})()"""


@pytest.mark.parametrize("path", ["/games/{playing}", "/games/{playing}/watch"])
def test_the_screen_stays_on_after_a_tap_and_after_coming_back(site, seeded, new_phone, path):
    page = new_phone()
    page.add_init_script(WAKE_LOCK_STUB)
    page.goto(site.url + path.format(**vars(seeded)))
    assert page.evaluate("window.wakeCalls") == []  # not before a tap
    page.locator("h1").tap()
    page.wait_for_function("window.wakeCalls.length === 1")
    assert page.evaluate("window.wakeCalls") == ["screen"]
    page.locator("h1").tap()
    assert page.evaluate("window.wakeCalls.length") == 1  # held: not asked again
    # the browser lets go when the page is hidden; back in view, the page asks again
    page.evaluate("window.wakeSentinels[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeCalls.length === 2")


#: Watches the browser's own Screen Wake Lock API: what the page got from it.
WAKE_LOCK_SPY = """(() => {
  window.wakeResults = [];
  const request = WakeLock.prototype.request;
  WakeLock.prototype.request = function (type) {
    const answer = request.call(this, type);
    answer.then(s => window.wakeResults.push(s.released ? 'released' : 'held'),
                e => window.wakeResults.push(e.name));
    return answer;
  };
})()"""


def test_chromium_grants_the_real_wake_lock(site, seeded, phone):
    phone.add_init_script(WAKE_LOCK_SPY)
    phone.goto(f"{site.url}/games/{seeded.playing}")
    phone.locator("h1").tap()
    phone.wait_for_function("window.wakeResults.length === 1")
    assert phone.evaluate("window.wakeResults") == ["held"]


def test_a_complex_deal_one_contract_at_a_time(site, seeded, scorer):
    """A tab for each contract, one shown; the last answer of one opens the next still open;
    a tab goes back, and a complete one is ticked."""
    scorer.goto(f"{site.url}/games/{seeded.heavy}/deals/new?contracts={COMPLEX}")
    tabs = scorer.locator(".steps [role=tab]")
    assert tabs.count() == 4

    def shown():
        groups = scorer.locator("form > .group").all()
        return [g.get_attribute("id") for g in groups if g.is_visible()]

    assert shown() == ["g-king_of_hearts"]
    scorer.locator(chip("kh_doubled_by", 1)).tap()
    assert shown() == ["g-king_of_hearts"]  # doubling alone leaves it open
    scorer.locator(chip("kh_taker", 3)).tap()
    assert shown() == ["g-diamonds"]
    assert "done" in tabs.nth(0).get_attribute("class")
    tabs.nth(0).tap()  # back to the K♥ to look: nothing moves by itself
    assert shown() == ["g-king_of_hearts"] and scorer.is_checked('[name=kh_taker][value="3"]')
    tabs.nth(3).tap()
    assert shown() == ["g-tricks"]


def test_a_refused_save_says_its_problem_once(site, seeded, scorer):
    """A form the server refused comes back with its problem; the bar says it, once, and the
    messages it came with are gone (they said it three times)."""
    scorer.goto(f"{site.url}/games/{seeded.fresh}/deals/new?contracts=diamonds")
    for seat, count in enumerate((13, 3)):
        scorer.locator(chip(f"diamonds_{seat}", count)).tap()
    scorer.wait_for_function("() => document.querySelector('button[data-save]').disabled")
    with scorer.expect_navigation():
        scorer.evaluate("document.querySelector('form[data-preview]').submit()")  # sent anyway
    assert scorer.locator("#live-preview").is_visible()
    scorer.wait_for_function("() => document.querySelector('button[data-save]').disabled")
    problem = scorer.locator("#live-preview .why").inner_text()
    assert problem and scorer.locator("main").inner_text().count(problem) == 1
    assert scorer.evaluate("window.scrollY") == 0


def test_new_game__chances_once_four_known_players_are_typed(site, seeded, phone):
    """The seeded games rated Aya, Bilal, Carla and Dana: typing the four names shows each
    one's chance, a newcomer's name hides them, and partnership gives the teams' chances."""
    phone.goto(site.url + "/games/new")
    odds = phone.locator("#chances")
    assert odds.is_hidden()
    for seat, name in enumerate(["Aya", "Bilal", "Carla", "Dana"]):
        phone.fill(f"#player_{seat}", name)
    odds.wait_for(state="visible")
    cells = odds.locator("td.num")
    expect(cells.first).to_have_text(re.compile(r"%$"))
    shown = cells.all_inner_texts()
    assert all(text.endswith("%") for text in shown)
    assert abs(sum(int(text[:-1]) for text in shown) - 100) <= 2
    assert odds.locator("bdi").all_inner_texts() == ["Aya", "Bilal", "Carla", "Dana"]
    phone.locator('#presets label:has(input[value="partnership"])').tap()
    for _ in range(50):  # the teams' chances come back from the server
        shown = cells.all_inner_texts()
        if shown[0] == shown[2] and shown[1] == shown[3]:
            break
        phone.wait_for_timeout(100)
    assert shown[0] == shown[2] and shown[1] == shown[3], shown
    phone.fill("#player_3", "Somebody new")
    odds.wait_for(state="hidden")
