"""Offline at the table: the network goes after the game page loads; deals entered meanwhile
wait on the phone (static/sw.js, its outbox) and reach the server once, in order, when the
network comes back; a deal another phone got in first shows the "changed meanwhile" page."""

from __future__ import annotations


from scorekeeper.store import storage
from scorekeeper.store.db import connect

from phone_helpers import chip, entry_taps, keep_score, shoot, wait_until
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
    wait_until(page, "navigator.serviceWorker.controller !== null")
    until(
        page,
        """async (url) => {
        for (const name of await caches.keys()) {
          if (await (await caches.open(name)).match(url)) { return true; }
        }
        return false; }""",
        f"{site.url}/games/{game_id}/deals/new?king=0&contracts=diamonds",
    )


def waiting_on(page) -> int:
    """How many deals wait in the phone's outbox."""
    return page.evaluate("""() => new Promise((ok, no) => {
        const asked = indexedDB.open("trex-outbox");
        asked.onerror = no;
        asked.onsuccess = () => {
          const count = asked.result.transaction("deals").objectStore("deals").count();
          count.onsuccess = () => ok(count.result);
        }; })""")


def until(page, script: str, arg=None, seconds: float = 20) -> None:
    """Wait until the async *script* answers true in the page (or fail after *seconds*)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true after {seconds} s: {script}")


def enter(
    page,
    entered: dict,
    waiting: tuple[str, ...] = (),
    opened: bool = False,
    number: int | None = None,
) -> None:
    """From the game page (or the form *opened* already): the contract, the result, Save (the
    bar's button). The form shows the deals *waiting* to be sent, and is deal *number* (the
    one after those waiting, unless said)."""
    if not opened:
        page.locator(f'#next .options a[href$="contracts={entered["contracts"][0]}"]').tap()
    page.locator("form[data-preview]").wait_for()
    # the page as a player reads it: parsed whole, its deferred scripts (renumber.js) run
    page.wait_for_load_state("domcontentloaded")
    assert page.locator("#outbox .waiting h2").all_inner_texts() == list(waiting)
    if waiting:  # a form kept before: the deal after those waiting
        number = number or len(waiting) + 1
        assert page.locator("h1").inner_text().startswith(f"Deal {number}:")
        assert page.locator("input[name=number]").input_value() == str(number)
        shoot(page, f"offline-entry-waiting-{entered['contracts'][0]}")
    for target in entry_taps(entered):
        page.locator(target).tap()
    page.locator("form[data-preview] button[name=step]").tap()
    page.wait_for_url("**/games/*")


def test_deals_entered_offline_are_sent_once_in_order(new_phone, site, own_game, artifacts):
    game_id, cookie = own_game(NAMES)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.context.set_offline(True)

    enter(page, FIRST)
    waiting = page.locator("#outbox .waiting")
    waiting.first.wait_for()
    assert waiting.first.locator("h2").inner_text() == "Deal 1 waiting to be sent"
    enter(page, SECOND, waiting=("Deal 1 waiting to be sent",))
    assert waiting.count() == 2
    page.reload()  # still offline: the game page as kept, the outbox still there
    waiting.nth(1).wait_for()
    assert waiting.locator("h2").all_inner_texts() == [
        "Deal 1 waiting to be sent",
        "Deal 2 waiting to be sent",
    ]
    second = waiting.nth(1).inner_text()
    assert "Diamonds" in second and "Aya: 3" in second and "Bilal: 4" in second
    assert "Points not yet checked" in second
    first = waiting.first.inner_text()
    assert "Who took the K♥? Bilal" in first and "Doubled" not in first  # only what was tapped
    shoot(page, "offline-waiting")
    assert stored(site, game_id) == ([], [])  # nothing reached the server
    assert waiting_on(page) == 2

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


def test_a_deal_waiting_in_arabic(new_phone, site, own_game, artifacts):
    """The outbox speaks the page's language, right to left, and in the dark scheme too."""
    game_id, cookie = own_game(NAMES)
    page = new_phone(cookies=[cookie], locale="ar-JO", scheme="dark")
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.context.set_offline(True)
    enter(page, SECOND)
    waiting = page.locator("#outbox .waiting")
    waiting.wait_for()
    assert waiting.locator("h2").inner_text() == "اليد 1 تنتظر الإرسال"
    assert "النقاط لم تُتحقَّق بعد" in waiting.inner_text()
    shoot(page, "ar-offline-waiting-dark")
    page.context.set_offline(False)
    page.locator("#outbox").wait_for(state="hidden", timeout=20_000)
    assert stored(site, game_id) == ([("diamonds",)], ["create"])


def test_a_deal_sent_late_after_another_phone_recorded_it(new_phone, site, own_game):
    """Phone A enters deal 2 without network while phone B, online, corrects deal 1 and records
    its own deal 2. When A is back, the server refuses A's deal 2: A sees the "changed
    meanwhile" page with its entry kept (to send as deal 3 if it is one), nothing is
    overwritten and nothing doubled."""
    game_id, cookie = own_game(NAMES)
    other = site.seed.test_client()  # phone B: the same rights, its own browser
    other.set_cookie("session", cookie["value"])
    table = Table(other)
    table.enter(game_id, FIRST)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.context.set_offline(True)
    enter(page, SECOND)
    page.locator("#outbox .waiting").wait_for()

    assert (
        table.correct(game_id, 1, deal(0, "king_of_hearts", king_of_hearts=kh(2))).status_code
        == 303
    )
    table.enter(
        game_id,
        deal(
            0,
            "queens",
            queens={"spades": kh(0), "hearts": kh(1), "diamonds": kh(2), "clubs": kh(3)},
        ),
    )
    page.context.set_offline(False)
    page.locator("#meanwhile").wait_for(timeout=20_000)
    text = page.locator("main").inner_text()
    assert "Deal 2 has been recorded meanwhile" in text
    assert "sending this again as deal 3" in text
    assert page.locator("#f-diamonds_0 input:checked").get_attribute("value") == "3"
    assert stored(site, game_id) == (
        [("king_of_hearts",), ("queens",)],
        ["create", "correct", "create"],
    )
    page.wait_for_timeout(500)  # nothing is left to send again: the entry is on the page
    assert stored(site, game_id)[1] == ["create", "correct", "create"]
    assert waiting_on(page) == 0


def test_a_deal_the_engine_refuses_comes_back_to_its_form(new_phone, site, own_game):
    """Offline, a Diamonds form kept open from before (a tab left behind) is filled in after
    Diamonds waits already. Back online the first is saved; the engine refuses the second,
    which comes back to its form with the engine's message and the result as tapped, and is
    not sent again."""
    game_id, cookie = own_game(NAMES)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.context.set_offline(True)
    enter(page, SECOND)
    again = deal(0, "diamonds", diamonds=[1, 2, 3, 7])
    page.goto(f"{site.url}/games/{game_id}/deals/new?king=0&contracts=diamonds")
    enter(page, again, waiting=("Deal 1 waiting to be sent",), opened=True)
    assert waiting_on(page) == 2

    page.context.set_offline(False)
    page.locator("form[data-preview] .error, #problems").first.wait_for(timeout=20_000)
    assert page.locator("#f-diamonds_3 input:checked").get_attribute("value") == "7"
    text = page.locator("main").inner_text()
    assert "Deal 1 saved." in text  # the first one's answer, left for the page that follows
    assert "Diamonds has already been played in this kingdom." in text
    shoot(page, "offline-refused")
    assert stored(site, game_id) == ([("diamonds",)], ["create"])
    page.wait_for_timeout(500)
    assert waiting_on(page) == 0
    assert stored(site, game_id) == ([("diamonds",)], ["create"])


def test_a_correction_made_offline_after_another_phone_corrected_it(new_phone, site, own_game):
    """A correction waits like a deal; sent after another phone corrected the same deal, the
    version check refuses it: the "changed meanwhile" page, what this phone read and what is
    recorded now, and only the other phone's correction stored."""
    game_id, cookie = own_game(NAMES)
    other = site.seed.test_client()
    other.set_cookie("session", cookie["value"])
    table = Table(other)
    table.enter(game_id, FIRST)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.goto(f"{site.url}/games/{game_id}/deals/1/edit")  # kept as it is opened
    page.context.set_offline(True)
    page.locator(chip("kh_taker", 3)).tap()
    page.locator("form[data-preview] button[name=step]").tap()
    page.wait_for_url(f"**/games/{game_id}")
    assert page.locator("#outbox .waiting h2").inner_text() == "Deal 1 waiting to be sent"
    assert "Who took the K♥? ليلى" in page.locator("#outbox .waiting").inner_text()

    assert (
        table.correct(game_id, 1, deal(0, "king_of_hearts", king_of_hearts=kh(2))).status_code
        == 303
    )
    page.context.set_offline(False)
    page.locator("#meanwhile").wait_for(timeout=20_000)
    text = page.locator("main").inner_text()
    assert "Deal 1 has been changed meanwhile" in text and "What this phone read" in text
    assert page.locator("#f-kh_taker input:checked").get_attribute("value") == "3"
    assert stored(site, game_id)[1] == ["create", "correct"]
    db = connect(site.app.config["DATABASE"])
    try:
        assert storage.history(db, game_id)[-1]["record"]["king_of_hearts"]["taker"] == 2
    finally:
        db.close()
    assert waiting_on(page) == 0


def next_shown(page) -> tuple[str, list[str]]:
    """The next deal's number on the game page and the contracts it offers, as shown."""
    page.locator("#next").wait_for()
    offered = [
        a.get_attribute("href").rsplit("contracts=", 1)[1]
        for a in page.locator("#next .options a").all()
        if a.is_visible()
    ]
    return page.locator("#next [data-n]").inner_text(), offered


def test_a_waiting_deals_contract_is_not_offered(new_phone, site, own_game):
    """Issue 28: while deals wait offline, the game page shows the next deal's number and
    offers only what the engine leaves open after them, also once reloaded; the entry bar says
    "offline" before Save."""
    game_id, cookie = own_game(NAMES)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.context.set_offline(True)
    page.locator('#next .options a[href$="contracts=diamonds"]').tap()
    page.locator("form[data-preview]").wait_for()
    page.locator(".bar").get_by_text("Offline: Save keeps this deal on the phone").wait_for()
    assert page.locator("[data-save]").is_enabled()
    shoot(page, "offline-entry-bar")
    enter(page, SECOND, opened=True)
    page.locator("#outbox .waiting").wait_for()
    assert next_shown(page) == ("2", ["king_of_hearts", "queens", "collections", "trex"])
    assert not page.locator("details.first-king").is_visible()  # a deal is played
    enter(page, FIRST, waiting=("Deal 1 waiting to be sent",))
    page.reload()  # still offline: the page as kept, what waits read again
    page.locator("#outbox .waiting").nth(1).wait_for()
    assert next_shown(page) == ("3", ["queens", "collections", "trex"])
    shoot(page, "offline-next-deal")
    page.context.set_offline(False)
    page.locator("#outbox").wait_for(state="hidden", timeout=20_000)
    assert stored(site, game_id)[0] == [("diamonds",), ("king_of_hearts",)]


def test_the_network_dropped_right_after_a_save_loses_nothing(new_phone, site, own_game):
    """Issue 28: a redeal saved, the network gone within 100 ms (before the kept forms are
    fetched again); then a second redeal from the same kept form (its token used), a deal and
    a correction entered offline. Back online, all are stored once, in order, and nothing is
    answered "already saved"."""
    game_id, cookie = own_game(NAMES)
    other = site.seed.test_client()
    other.set_cookie("session", cookie["value"])
    Table(other).enter(game_id, FIRST)
    page = new_phone(cookies=[cookie])
    keep_score(page, site, game_id)
    offline_ready(page, site, game_id)
    page.goto(f"{site.url}/games/{game_id}/deals/1/edit")  # kept as it is opened
    page.goto(f"{site.url}/games/{game_id}")

    page.locator("#next .actions a[href*=thrown-in]").tap()
    page.locator(chip("by", 1)).tap()
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("button[name=step]").tap()
    page.context.set_offline(True)  # at once: the forms are not fetched again
    page.wait_for_url(f"**/games/{game_id}")
    assert stored(site, game_id)[0] == [("king_of_hearts",), ()]
    assert next_shown(page)[0] == "3"

    page.locator("#next .actions a[href*=thrown-in]").tap()
    assert page.locator("h1").inner_text().startswith("Deal 3:")
    page.locator(chip("by", 2)).tap()
    page.locator("button[name=step]").tap()
    page.wait_for_url(f"**/games/{game_id}")
    page.locator("#outbox .waiting").wait_for()
    assert next_shown(page)[0] == "4"
    enter(page, SECOND, waiting=("Deal 3 waiting to be sent",), number=4)
    page.goto(f"{site.url}/games/{game_id}/deals/1/edit")
    page.locator(chip("kh_taker", 3)).tap()
    page.locator("form[data-preview] button[name=step]").tap()
    page.wait_for_url(f"**/games/{game_id}")
    assert page.locator("#outbox .waiting h2").all_inner_texts() == [
        "Deal 3 waiting to be sent",
        "Deal 4 waiting to be sent",
        "Deal 1 waiting to be sent",
    ]
    assert waiting_on(page) == 3

    page.context.set_offline(False)
    for _ in range(200):
        if len(stored(site, game_id)[1]) == 5:
            break
        page.wait_for_timeout(100)
    page.locator("#outbox").wait_for(state="hidden", timeout=20_000)
    page.wait_for_timeout(500)  # sending again finds nothing
    assert stored(site, game_id) == (
        [("king_of_hearts",), (), (), ("diamonds",)],
        ["create", "create", "create", "create", "correct"],
    )
    db = connect(site.app.config["DATABASE"])
    try:
        history = storage.history(db, game_id)
    finally:
        db.close()
    assert [h["record"].get("thrown_in", {}).get("by") for h in history[1:3]] == [1, 2]
    assert history[-1]["record"]["king_of_hearts"]["taker"] == 3
    assert "Already saved" not in page.locator("main").inner_text()
    assert waiting_on(page) == 0
