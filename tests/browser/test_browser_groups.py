"""Groups in a real browser, on a box of many groups under waitress (CSRF on, as in
production): one phone starts a group, a second joins by its link and enters a deal, a third
with no link sees nothing, and once the link is rotated a fourth cannot join by the old one."""

from __future__ import annotations

import re

import pytest

from scorekeeper.web import create_app

from phone_helpers import PHONE, chip, shoot
from live_server import serve_in_thread, stop_in_thread


@pytest.fixture(scope="module")
def box(tmp_path_factory):

    tmp = tmp_path_factory.mktemp("groups-box")
    app = create_app({"GROUPS": "open", "INSTANCE_PATH": str(tmp / "instance")})
    server, thread = serve_in_thread(app)
    yield f"http://127.0.0.1:{server.effective_port}"
    stop_in_thread(server, thread)


@pytest.fixture
def new_phone(browser, box):
    """A phone of this box (as the suite's ``new_phone``, for this box's address)."""
    contexts, requests = [], []

    def make():
        context = browser.new_context(
            viewport=PHONE, screen=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(10_000)
        context.on("request", lambda request: requests.append(request.url))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    outside = [url for url in requests if not url.startswith(box + "/")]
    assert not outside, f"requests that left the app: {outside}"


def nothing_here(page) -> bool:
    return "nothing here for this phone" in page.locator("main").inner_text()


def test_a_group_from_start_to_a_rotated_link(box, new_phone):
    starter = new_phone()
    starter.goto(box + "/")
    starter.fill("input[name=name]", "Friday table")
    starter.locator('button:text-is("Start the group")').tap()
    starter.wait_for_url(re.compile(r"/g/[a-z2-9]+/group$"))
    group = starter.url.split("/g/")[1].split("/")[0]
    join = starter.locator("#join code").inner_text()
    assert re.fullmatch(rf"http://127\.0\.0\.1:\d+/g/{group}/join/[0-9a-f]{{32}}", join)
    qr = starter.locator("#join img.qr")
    assert starter.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=qr.element_handle()
    )
    shoot(starter, "group-started")

    second = new_phone()
    second.goto(join)
    second.wait_for_url(f"{box}/g/{group}/")
    second.goto(f"{box}/g/{group}/games/new")
    for seat, name in enumerate(("Mohammed", "Mohannad", "Aya", "ليلى")):
        second.fill(f'input[name="player_{seat}"]', name)
    second.locator(chip("first_king", 0)).tap()
    second.locator('button:text-is("Start the game")').tap()
    second.wait_for_url(re.compile(rf"/g/{group}/games/\d+$"))
    game_url = second.url
    second.locator('#next .options a:text-is("King of Hearts")').tap()
    second.locator(chip("kh_taker", 1)).tap()
    second.locator("form[data-preview] button[name=step]").tap()
    second.locator(".flash").get_by_text("Deal 1 saved.").wait_for()
    assert "-75" in second.locator("table.sheet").inner_text().replace("−", "-")

    third = new_phone()  # no link: the group's pages say nothing
    for url in (game_url, f"{box}/g/{group}/", f"{box}/g/{group}/history/export.json"):
        response = third.goto(url)
        assert response.status == 404 and nothing_here(third), url
        assert "Mohannad" not in third.content() and "Friday table" not in third.content()
    shoot(third, "group-stranger")

    starter.goto(f"{box}/g/{group}/group")
    starter.locator("#new-join-link button").tap()
    starter.locator(".flash").wait_for()
    new_join = starter.locator("#join code").inner_text()
    assert new_join != join

    fourth = new_phone()
    assert fourth.goto(join).status == 404 and nothing_here(fourth)
    assert fourth.goto(game_url).status == 404
    second.goto(game_url)  # the member who joined by the old link stays a member
    assert "Mohannad" in second.locator("table.sheet").inner_text()
    assert fourth.goto(new_join).ok
    assert fourth.goto(game_url).ok


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_front_page_and_the_groups_page_fit_a_narrow_phone(box, browser, lang):
    size = {"width": 360, "height": 740}
    context = browser.new_context(
        viewport=size,
        screen=size,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        extra_http_headers={"Accept-Language": lang},
    )
    try:
        page = context.new_page()
        page.goto(box + "/")
        assert page.locator("html").get_attribute("lang") == lang
        wide = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        assert page.evaluate(wide)
        shoot(page, f"group-front-{lang}-360")
        page.fill("input[name=name]", "عائلة أبو محمد" if lang == "ar" else "Friday table")
        page.locator("#start button[type=submit]").tap()
        page.wait_for_url(re.compile(r"/g/[a-z2-9]+/group$"))
        assert page.evaluate(wide)
        shoot(page, f"group-page-{lang}-360")
    finally:
        context.close()


def start_a_group(page, box: str, name: str) -> str:
    page.goto(box + "/")
    page.fill("input[name=name]", name)
    page.locator("#start button[type=submit]").click()
    page.wait_for_url(re.compile(r"/g/[a-z2-9]+/group$"))
    return page.url.split("/g/")[1].split("/")[0]


@pytest.fixture(scope="module")
def thursday_club(box, browser):
    """One group for the tests below (a box starts five an hour per address): its id, and the
    starter's cookies, for a phone of its own to open the group page with."""
    context = browser.new_context()
    try:
        group = start_a_group(context.new_page(), box, "Thursday club")
        return group, context.storage_state()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_issue37_other__without_web_share_the_group_page_copies_the_join_link(
    box, browser, thursday_club, lang
):
    """A desktop browser (no Web Share): the join link is shown, and Copy puts it on the
    clipboard; the page's tab title is the group's name as text; a new game is one tap away."""
    group, state = thursday_club
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        permissions=["clipboard-read", "clipboard-write"],
        storage_state=state,
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": box}])
    context.add_init_script(
        "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
    )
    try:
        page = context.new_page()
        page.goto(f"{box}/g/{group}/group")
        app_name = "حاسبة التركس" if lang == "ar" else "Trex Scorekeeper"
        assert page.title() == f"\u2068Thursday club\u2069 · {app_name}"
        join = page.locator("#join code").inner_text()
        assert re.fullmatch(rf"http://127\.0\.0\.1:\d+/g/{group}/join/[0-9a-f]{{32}}", join)
        assert page.locator("#share-result").is_hidden()
        copy = page.locator("#copy-result")
        assert copy.is_visible()
        copy.click()
        page.wait_for_function("b => b.textContent === b.dataset.copied", arg=copy.element_handle())
        assert page.evaluate("navigator.clipboard.readText()") == join
        page.locator("main a#new-game").click()
        page.wait_for_url(f"{box}/g/{group}/games/new")
    finally:
        context.close()


def test_issue37_other__without_javascript_the_join_link_is_there_to_select(
    box, browser, thursday_club
):
    group, state = thursday_club
    context = browser.new_context(
        java_script_enabled=False, viewport=PHONE, screen=PHONE, storage_state=state
    )
    try:
        page = context.new_page()
        page.goto(f"{box}/g/{group}/group")
        code = page.locator("#join code")
        assert code.is_visible() and f"/g/{group}/join/" in code.inner_text()
        code.click()
        assert page.evaluate("getSelection().toString()") == code.inner_text()
        assert page.locator("#copy-result").is_hidden()
    finally:
        context.close()
