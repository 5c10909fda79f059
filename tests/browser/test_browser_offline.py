"""Offline at the table: the network goes after the game page loads; deals entered meanwhile
wait on the phone (static/sw.js, its outbox) and reach the server once, in order, when the
network comes back; a deal another phone got in first shows the "changed meanwhile" page."""
from __future__ import annotations

import json

from scorekeeper.store import storage
from scorekeeper.store.db import connect

from phone_helpers import chip, entry_taps, keep_score, shoot
from played import deal, kh
from web_helpers import Table

NAMES = ["Aya", "Bilal", "Carla", "ليلى"]
FIRST = deal(0, "king_of_hearts", king_of_hearts=kh(1))
SECOND = deal(0, "diamonds", diamonds=[3, 4, 6, 0])


def stored(site, game_id: int) -> tuple[list[tuple[str, ...]], list[str]]:
    """The game's deals as stored (each one's contracts) and every saving the history holds."""
    db = connect(site.app.config["DATABASE"])  # its own connection: what is stored now
    try:
        game = storage.load_game(db, game_id)
        assert game is not None
        added = [row["action"] for row in storage.history(db, game_id)]
    finally:
        db.close()
    return [tuple(c.value for c in d.contracts) for d in game.game.deals], added


def offline_ready(page, site, game_id: int) -> None:
    """The game page under the service worker, with the forms its next deal links to kept."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    until(page, """async (url) => {
        for (const name of await caches.keys()) {
          if (await (await caches.open(name)).match(url)) { return true; }
        }
        return false; }""", f"{site.url}/games/{game_id}/deals/new?king=0&contracts=diamonds")


def until(page, script: str, arg=None, seconds: float = 20) -> None:
    """Wait until the async *script* answers true in the page (or fail after *seconds*)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true after {seconds} s: {script}")


def enter(page, entered: dict, label: str) -> None:
    """From the game page: the contract, the result, Save (the bar's button)."""
    page.locator(f'#next .options a:text-is("{label}")').tap()
    for target in entry_taps(entered):
        page.locator(target).tap()
    page.locator("form[data-preview] button[name=step]").tap()
    page.wait_for_url(f"**/games/*")


def test_deals_entered_offline_are_sent_once_in_order(new_phone, site, own_game, artifacts):
    game_id, cookie = own_game(NAMES)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.context.set_offline(True)

    enter(page, FIRST, "King of Hearts")
    waiting = page.locator("#outbox .waiting")
    waiting.first.wait_for()
    assert waiting.first.locator("h2").inner_text() == "Deal 1 waiting to be sent"
    enter(page, SECOND, "Diamonds")
    assert waiting.count() == 2
    page.reload()  # still offline: the game page as kept, the outbox still there
    waiting.nth(1).wait_for()
    assert waiting.locator("h2").all_inner_texts() == ["Deal 1 waiting to be sent",
                                                       "Deal 2 waiting to be sent"]
    second = waiting.nth(1).inner_text()
    assert "Diamonds" in second and "Aya: 3" in second and "Bilal: 4" in second
    assert "Points not yet checked" in second
    assert "Who took the K♥? Bilal" in waiting.first.inner_text()
    shoot(page, "offline-waiting")
    assert stored(site, game_id) == ([], [])  # nothing reached the server

    page.context.set_offline(False)
    for _ in range(200):  # sent as soon as the server answers: on the "online" event
        if stored(site, game_id)[0]:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)  # what the phone still had to send, if anything
    assert stored(site, game_id) == ([("king_of_hearts",), ("diamonds",)], ["create", "create"])
    page.locator("#outbox").wait_for(state="hidden")
    page.get_by_text("2 deals recorded").wait_for()
    page.evaluate("new Promise(r => setTimeout(r, 500))")  # sending again finds nothing
    assert stored(site, game_id) == ([("king_of_hearts",), ("diamonds",)], ["create", "create"])
