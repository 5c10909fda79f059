"""A second phone follows the game: the QR code's link opens the read-only scoreboard, which
updates by itself, without a reload, within seconds of a save on the scorekeeper's phone. And the
app can be installed to the home screen."""

from __future__ import annotations

import time

from phone_helpers import CHROMIUM_ARGS, PHONE, chip, chromium_path, font_env, shoot, standings
from web_helpers import PLAYERS

#: The scoreboard asks every 3 seconds; a save must show within this many.
FOLLOW_SECONDS = 8


def test_a_second_phone_follows_the_game_without_reloading(site, own_game, new_phone):
    game_id, cookie = own_game()
    scorer = new_phone(cookies=[cookie])
    scorer.goto(f"{site.url}/games/{game_id}")
    scorer.locator("#follow summary").tap()  # the QR code and the links behind one button
    qr = scorer.locator("#follow img.qr")
    qr.scroll_into_view_if_needed()
    assert scorer.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=qr.element_handle()
    )
    link = scorer.get_attribute("#follow a.btn", "href")
    assert link.startswith("/v/")

    watcher = new_phone(scheme="dark")
    watcher.goto(site.url + link)
    assert watcher.url == f"{site.url}/games/{game_id}/watch"
    assert watcher.locator("main form, main button").count() == 0
    hrefs = watcher.locator("main a").evaluate_all("links => links.map(a => a.href)")
    assert not [h for h in hrefs if "/deals/" in h or "thrown-in" in h], hrefs
    other = new_phone()  # the game page itself, on a phone that only watches
    other.goto(f"{site.url}/games/{game_id}")
    assert other.locator("#next").count() == 0
    for page in (watcher, other):
        page.evaluate("window.stayed = true")

    scorer.locator('#next .options a:text-is("King of Hearts")').tap()
    scorer.locator(chip("kh_taker", 1)).tap()
    scorer.locator("form[data-preview] button[name=step]").tap()
    scorer.locator(".flash").get_by_text("Deal 1 saved.").wait_for()
    saved = time.monotonic()

    for page in (watcher, other):
        page.wait_for_function(
            "() => document.querySelector('#live table.sheet').textContent.includes('75')",
            timeout=FOLLOW_SECONDS * 1000,
        )
        assert page.evaluate("window.stayed") is True  # updated in place, not reloaded
        assert standings(page) == dict(zip(PLAYERS, (0, -75, 0, 0)))
    assert time.monotonic() - saved < FOLLOW_SECONDS
    assert "1 deal recorded" in watcher.locator("#live").inner_text()
    shoot(watcher, "scoreboard-after-a-save-dark")


def test_the_app_can_be_installed_to_the_home_screen(site, browser, tmp_path):
    """Chromium finds the manifest and its icons and has nothing against installing the app.
    (A browser profile on disk: Chromium does not install from a private window.)"""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium_path(),
        args=CHROMIUM_ARGS,
        env=font_env(),
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        page.goto(site.url + "/")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == site.url + "/static/manifest.webmanifest"
        assert manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        for size in (192, 512):
            icon = context.request.get(f"{site.url}/static/icons/icon-{size}.png")
            assert icon.ok and icon.headers["content-type"] == "image/png"
    finally:
        context.close()
