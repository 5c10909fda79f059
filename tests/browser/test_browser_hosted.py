"""Issue 32 in a browser: Chromium on the hosted box, behind a real Caddy over HTTPS in front of
the real waitress (``serve --proxy-hops 1 --public-url https://scores.test:PORT``).

A phone opens the group's join link and starts a game with a table PIN; a stranger (a phone at
127.0.0.66, without a browser) tries PINs until it is refused; a second phone in Chromium then
still gives the PIN, and enters a deal. Every form is a POST over HTTPS, which Flask-WTF lets through only with a
Referer of the site itself: with the pages' old ``Referrer-Policy: no-referrer`` each was refused
(400), and with waitress removing the forwarded headers every phone was the proxy.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from scorekeeper.store import keys as pin_limits

from hosted_box import HOST, hosted_box
from phone_helpers import CHROMIUM_ARGS, PHONE, chip, chromium_path, font_env, entry_taps, shoot
from played import deal, kh

NAMES = ["Aya", "Bilal", "Carla", "ليلى"]
PIN = "482193"
FIRST_DEAL = deal(0, "king_of_hearts", king_of_hearts=kh(2))


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    with hosted_box(tmp_path_factory.mktemp("hosted-browser")) as running:
        yield running


@pytest.fixture(scope="module")
def hosted_browser(browser):
    """Chromium that finds scores.test at 127.0.0.1 (never looked up) and takes Caddy's own
    certificate: launched by the suite's one Playwright (a second one in the same process
    finds the first one's event loop running, and refuses)."""
    chromium = browser.browser_type.launch(
        executable_path=chromium_path(),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        env=font_env(),
    )
    yield chromium
    chromium.close()


@pytest.fixture
def phones(hosted_browser):
    """``phones()`` opens a phone (a context of its own: its own cookies); every answer each
    one got is kept in the list it returns with the page."""
    contexts = []

    def make():
        context = hosted_browser.new_context(
            viewport=PHONE,
            screen=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            ignore_https_errors=True,
            reduced_motion="reduce",
        )
        context.set_default_timeout(15_000)
        answers: list[tuple[int, str, str]] = []
        context.on("response", lambda r: answers.append((r.status, r.request.method, r.url)))
        contexts.append(context)
        return context.new_page(), answers

    yield make
    for context in contexts:
        context.close()


def start_game(page, box) -> int:
    """The group's join link, then New game with a table PIN."""
    page.goto(box.url + box.join_link())
    page.wait_for_url(box.url + "/")
    page.goto(box.url + "/games/new")
    for seat, name in enumerate(NAMES):
        page.fill(f'input[name="player_{seat}"]', name)
    page.locator(chip("first_king", 0)).tap()
    page.fill('input[name="pin"]', PIN)
    page.locator('button:text-is("Start the game")').tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def test_issue32__a_table_plays_on_the_hosted_box_through_caddy(box, phones):
    starter, started_answers = phones()
    game = start_game(starter, box)
    starter.goto(f"{box.url}/games/{game}/share")  # the Phones page: the links to give
    [row] = box.query("select edit_key, view_key from games where id = ?", (game,))
    shown = starter.locator("main").inner_text()
    assert f"{box.url}/e/{row['edit_key']}" in shown and f"{box.url}/v/{row['view_key']}" in shown

    # a stranger without the join link cannot even reach the PIN page...
    assert (
        box.phone("127.0.0.67").post_form(f"/games/{game}/unlock", {"pin": "000000"}).status == 404
    )
    # ...a phone of the group (127.0.0.66) tries PINs until it is refused...
    stranger = box.member("127.0.0.66")
    refused = [
        stranger.post_form(f"/games/{game}/unlock", {"pin": "000000"}).status
        for _ in range(pin_limits.PIN_TRIES + 1)
    ]
    assert refused == [400] * pin_limits.PIN_TRIES + [429]
    # ...and the table's second phone (this Chromium, at 127.0.0.1) still gives the PIN
    scorer, scorer_answers = phones()
    scorer.goto(box.url + box.join_link())  # a phone of the group
    scorer.goto(f"{box.url}/games/{game}")  # it watches, and asks to keep score
    scorer.locator('#phones a:text-is("Watching: keep score on this phone")').tap()
    scorer.fill('input[name="pin"]', PIN)
    scorer.locator('button:text-is("Enter the PIN")').tap()
    scorer.locator(".flash").get_by_text("This phone can keep score").wait_for()
    scorer.locator('#next .options a:text-is("King of Hearts")').tap()
    for target in entry_taps(FIRST_DEAL):
        scorer.locator(target).tap()
    scorer.locator("form[data-preview] button[name=step]").tap()
    scorer.locator(".flash").get_by_text("Deal 1 saved.").wait_for()
    shoot(scorer, "hosted-after-first-deal")

    assert scorer.url == f"{box.url}/games/{game}"
    assert box.query("select count(*) as n from deals where game_id = ?", (game,))[0]["n"] == 1
    # the stranger's tries, counted for it; the right PIN is not counted
    assert (
        box.query("select client from pin_attempts")
        == [{"client": "127.0.0.66"}] * pin_limits.PIN_TRIES
    )
    answers = started_answers + scorer_answers
    posts = [(status, urlsplit(url).path) for status, method, url in answers if method == "POST"]
    forms = [post for post in posts if not post[1].endswith(".json")]
    assert forms == [
        (303, "/games/new"),
        (303, f"/games/{game}/unlock"),
        (303, f"/games/{game}/deals/new"),
    ]
    previews = [post for post in posts if post[1].endswith("/preview.json")]
    assert previews and all(status == 200 for status, _ in previews), previews
    assert not [a for a in answers if a[0] >= 500 or a[0] == 400], answers
    assert {urlsplit(url).netloc for _, _, url in answers} == {f"{HOST}:{box.caddy.port}"}
